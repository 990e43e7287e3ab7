// Per-user usage counters (access limits) on both backends: adds within a window sum, a write after
// the window restarts it, users and periods are apart, and concurrent adds lose nothing (two
// gateway instances on one PostgreSQL database count into the same row).
import { expect, it } from 'vitest';
import { forEachBackend } from './backends.js';

const MINUTE = 60_000;
const minute = (now: number) => ({ start: now, staleBefore: now - MINUTE + 1 });

forEachBackend((open) => {
  it('usage counters: a window sums, restarts once over, and keeps users and periods apart', async () => {
    const store = await open();
    const t0 = 1_700_000_000_000;
    expect(await store.usageCounters.get('telegram:1', 'minute', t0 - MINUTE)).toBeUndefined();
    expect(await store.usageCounters.add('telegram:1', 'minute', minute(t0), { turns: 1 })).toEqual({
      userKey: 'telegram:1',
      period: 'minute',
      startedAt: t0,
      turns: 1,
      tokens: 0,
      cost: 0,
      uploads: 0,
    });
    const second = await store.usageCounters.add('telegram:1', 'minute', minute(t0 + 59_999), { turns: 1 });
    expect(second).toMatchObject({ startedAt: t0, turns: 2 });
    // another user, another period: their own rows
    expect(await store.usageCounters.add('slack:U1', 'minute', minute(t0 + 10), { turns: 1 })).toMatchObject({
      turns: 1,
    });
    const day = { start: t0, staleBefore: t0 };
    await store.usageCounters.add('telegram:1', 'day', day, { tokens: 1200, cost: 0.25 });
    expect(await store.usageCounters.add('telegram:1', 'day', day, { tokens: 800, cost: 0.5 })).toMatchObject({
      tokens: 2000,
      cost: 0.75,
      turns: 0,
    });
    // the day's stored bytes (media.daily_upload_mb) sum in the same row, leaving the budgets as they are
    await store.usageCounters.add('telegram:1', 'day', day, { uploads: 6_000 });
    expect(await store.usageCounters.add('telegram:1', 'day', day, { uploads: 4_000_000_000 })).toMatchObject({
      uploads: 4_000_006_000,
      tokens: 2000,
    });
    expect(await store.usageCounters.get('telegram:1', 'minute', t0 - MINUTE + 1)).toMatchObject({ turns: 2 });
    // a minute after the window's first turn: the next add starts a new window
    const restarted = await store.usageCounters.add('telegram:1', 'minute', minute(t0 + MINUTE), { turns: 1 });
    expect(restarted).toMatchObject({ startedAt: t0 + MINUTE, turns: 1 });
    // a stale window is not read as current
    expect(await store.usageCounters.get('telegram:1', 'day', t0 + 86_400_000)).toBeUndefined();
    expect(await store.usageCounters.get('slack:U1', 'minute', t0 + 10 - MINUTE + 1)).toMatchObject({ turns: 1 });
  });

  it('usage counters: concurrent adds from two connections all count', async () => {
    const store = await open();
    const t0 = 1_700_000_000_000;
    const adds = Array.from({ length: 20 }, (_, i) =>
      store.usageCounters.add('telegram:7', 'minute', minute(t0 + i), { turns: 1 }),
    );
    const counts = (await Promise.all(adds)).map((c) => c.turns).sort((a, b) => a - b);
    expect(counts).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });
});
