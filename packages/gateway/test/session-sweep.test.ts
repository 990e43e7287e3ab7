// The session lifecycle on a real state.db: the reset policy's cutoff, the session stage's seed order
// (finalize, reset, then start on the first turn) and the idle sweep that finalizes idle sessions
// without racing a turn.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HookBus } from '@hermes/plugins';
import { type GatewayEventType, type HookName, type HookPayloads, silentLogger } from '@hermes/protocol';
import { asyncSqliteStore, openStore, type Store } from '@hermes/store';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GatewayEvents } from '../src/gateway-hooks/gateway-events.js';
import { SessionStage } from '../src/pipeline/session.js';
import { needsReset, type ResetPolicy, resetCutoff, resetReason } from '../src/sessions/reset-policy.js';
import { SessionSweep, sweepIntervalMs, underResetPolicy } from '../src/sessions/session-sweep.js';

const MINUTE = 60_000;
const IDLE: ResetPolicy = { mode: 'idle', idle_minutes: 10, at_hour: 4 };
const stores: Store[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  vi.useRealTimers();
});

type Call = { hook: HookName; payload: Record<string, unknown> };

/** A session stage and its sweep on a temp state.db with a clock the test moves. */
function setUp(policy: ResetPolicy = IDLE, busy: (key: string) => boolean = () => false) {
  const clock = { t: new Date(2026, 0, 2, 12, 0).getTime() };
  const now = () => clock.t;
  const store = openStore(join(mkdtempSync(join(tmpdir(), 'hermes-sweep-')), 'state.db'), { now });
  stores.push(store);
  const calls: Call[] = [];
  const hooks = new HookBus();
  const record =
    <K extends HookName>(hook: K) =>
    (payload: HookPayloads[K]) =>
      void calls.push({ hook, payload: { ...payload } });
  for (const hook of ['on_session_finalize', 'on_session_reset'] as const)
    hooks.register(hook, record(hook), { source: 'test', name: 'recorder' });
  const events = new GatewayEvents(hooks);
  const emitted: { type: GatewayEventType; context: Record<string, unknown> }[] = [];
  events.on('session:*', (type, context) => void emitted.push({ type, context }));
  const asyncStore = asyncSqliteStore(store);
  const stage = new SessionStage({
    sessions: asyncStore.sessions,
    hooks,
    events,
    model: 'm',
    resetPolicy: policy,
    now,
  });
  const sweep = new SessionSweep({
    sessions: asyncStore.sessions,
    stage,
    lanes: { busy },
    guard: null,
    policy,
    platforms: () => ['telegram', 'api'],
    logger: silentLogger,
    now,
  });
  const eventsSettled = () => new Promise((r) => setImmediate(r));
  return { clock, store, stage, sweep, calls, emitted, eventsSettled };
}

describe('the reset policy as a cutoff', () => {
  it('a session is due exactly when it was last active before the cutoff, for every mode', () => {
    const now = new Date(2026, 0, 2, 12, 0).getTime();
    for (const mode of ['none', 'idle', 'daily', 'both'] as const) {
      const policy: ResetPolicy = { mode, idle_minutes: 90, at_hour: 11 };
      const cutoff = resetCutoff(policy, now);
      for (let minutesAgo = 0; minutesAgo < 48 * 60; minutesAgo += 7) {
        const updatedAt = now - minutesAgo * MINUTE;
        expect(needsReset(updatedAt, policy, now), `${mode} ${minutesAgo}`).toBe(cutoff !== null && updatedAt < cutoff);
      }
    }
    const both: ResetPolicy = { mode: 'both', idle_minutes: 90, at_hour: 11 };
    expect(resetReason(now - 100 * MINUTE, both, now)).toBe('idle');
    expect(resetReason(now - 80 * MINUTE, both, now)).toBe('daily'); // 10:40, before today's 11:00
    expect(resetReason(now - 30 * MINUTE, both, now)).toBeNull();
  });

  it('sweeps every tenth of the idle window, between 1 s and 60 s; a daily-only policy every minute', () => {
    expect(sweepIntervalMs({ ...IDLE, idle_minutes: 1440 })).toBe(60_000);
    expect(sweepIntervalMs({ ...IDLE, idle_minutes: 5 })).toBe(30_000);
    expect(sweepIntervalMs({ ...IDLE, idle_minutes: 0.05 })).toBe(1_000);
    expect(sweepIntervalMs({ ...IDLE, mode: 'daily' })).toBe(60_000);
  });

  it('applies to chat and keyed API sessions, not to delegate children nor Responses chains', () => {
    expect(underResetPolicy({ sessionKey: 'telegram:42:dm', platform: 'telegram' })).toBe(true);
    expect(underResetPolicy({ sessionKey: 'api:my-key', platform: 'api' })).toBe(true);
    expect(underResetPolicy({ sessionKey: 'delegate:sess_1', platform: 'telegram' })).toBe(false);
    expect(underResetPolicy({ sessionKey: 'api:response:resp_1', platform: 'api' })).toBe(false);
  });
});

describe('the session stage', () => {
  it('/new: finalize (reason new), then reset, then a new session; session:end carries the id and reason', async () => {
    const { stage, calls, emitted, eventsSettled } = setUp();
    const first = await stage.open('telegram:42:dm', 'telegram', '42');
    await stage.reset('telegram:42:dm', 'telegram', '42');
    const next = await stage.open('telegram:42:dm', 'telegram', '42');
    expect(calls.map((c) => [c.hook, c.payload.sessionId, c.payload.reason])).toEqual([
      ['on_session_finalize', first.id, 'new'],
      ['on_session_reset', next.id, undefined],
    ]);
    expect(next.isNew).toBe(false); // /new made it
    await eventsSettled();
    expect(emitted.find((e) => e.type === 'session:end')?.context).toEqual({
      platform: 'telegram',
      user_id: '42',
      session_id: first.id,
      session_key: 'telegram:42:dm',
      reason: 'new',
    });
  });

  it('a message after the idle window: finalize (reason idle), the old session ended idle, then reset', async () => {
    const { clock, store, stage, calls } = setUp();
    const first = await stage.open('telegram:42:dm', 'telegram', '42');
    clock.t += 11 * MINUTE;
    const next = await stage.open('telegram:42:dm', 'telegram', '42');
    expect(next.isNew).toBe(true);
    expect(calls.map((c) => [c.hook, c.payload.sessionId, c.payload.reason])).toEqual([
      ['on_session_finalize', first.id, 'idle'],
      ['on_session_reset', next.id, undefined],
    ]);
    expect(store.sessions.get(first.id)?.endReason).toBe('idle');
  });

  it('a first session of a key is no reset', async () => {
    const { stage, calls } = setUp();
    expect((await stage.open('telegram:42:dm', 'telegram', '42')).isNew).toBe(true);
    expect(calls).toEqual([]);
  });
});

describe('the idle sweep', () => {
  it('finalizes only sessions idle past the policy, with the reason; the next message is a reset', async () => {
    const { clock, store, stage, sweep, calls, emitted, eventsSettled } = setUp();
    const idle = await stage.open('telegram:1:dm', 'telegram', '1');
    const cli = store.sessions.create({ key: 'cli:chat', platform: 'cli' });
    const child = store.sessions.create({ key: `delegate:${idle.id}`, platform: 'telegram' });
    clock.t += 6 * MINUTE;
    const recent = await stage.open('telegram:2:dm', 'telegram', '2');
    clock.t += 5 * MINUTE;
    expect(await sweep.sweepOnce()).toEqual({ ended: 1, more: false });
    expect(calls).toEqual([
      { hook: 'on_session_finalize', payload: { sessionId: idle.id, platform: 'telegram', reason: 'idle' } },
    ]);
    expect(store.sessions.get(idle.id)?.endReason).toBe('idle');
    for (const untouched of [cli.id, child.id, recent.id]) expect(store.sessions.get(untouched)?.endedAt).toBeNull();
    await eventsSettled();
    expect(emitted.filter((e) => e.type === 'session:end').map((e) => e.context)).toEqual([
      { platform: 'telegram', user_id: '', session_id: idle.id, session_key: 'telegram:1:dm', reason: 'idle' },
    ]);
    // swept again: nothing more to do
    expect(await sweep.sweepOnce()).toEqual({ ended: 0, more: false });
    // the chat writes again: a fresh session, and on_session_reset (the policy ended the last one)
    const next = await stage.open('telegram:1:dm', 'telegram', '1');
    expect(next.isNew).toBe(true);
    expect(calls.map((c) => c.hook)).toEqual(['on_session_finalize', 'on_session_reset']);
    expect(calls[1]?.payload).toEqual({ sessionId: next.id, platform: 'telegram' });
  });

  it('never sweeps a key whose lane has a turn', async () => {
    const busyKeys = new Set(['telegram:1:dm']);
    const { clock, stage, sweep, calls } = setUp(IDLE, (key) => busyKeys.has(key));
    await stage.open('telegram:1:dm', 'telegram', '1');
    clock.t += 11 * MINUTE;
    expect(await sweep.sweepOnce()).toEqual({ ended: 0, more: false });
    expect(calls).toEqual([]);
    busyKeys.clear();
    expect((await sweep.sweepOnce()).ended).toBe(1);
  });

  it('a turn opening the key while the sweep finalizes it waits for it: one finalize, one reset, either order', async () => {
    const { clock, stage, sweep, calls } = setUp();
    const first = await stage.open('telegram:1:dm', 'telegram', '1');
    clock.t += 11 * MINUTE;
    // the sweep first: its finalize is in flight when the turn opens the key
    const swept = stage.finalizeIdle({ sessionKey: 'telegram:1:dm', id: first.id, platform: 'telegram' });
    const [ended, next] = await Promise.all([swept, stage.open('telegram:1:dm', 'telegram', '1')]);
    expect(ended).toBe(true);
    expect(calls.map((c) => [c.hook, c.payload.sessionId])).toEqual([
      ['on_session_finalize', first.id],
      ['on_session_reset', next.id],
    ]);
    // the turn first: the sweep that queried before it finds the session replaced and does nothing
    clock.t += 11 * MINUTE;
    calls.length = 0;
    const racing = sweep.sweepOnce();
    const third = await stage.open('telegram:1:dm', 'telegram', '1');
    expect(await racing).toEqual({ ended: 0, more: false });
    expect(calls.map((c) => [c.hook, c.payload.sessionId])).toEqual([
      ['on_session_finalize', next.id],
      ['on_session_reset', third.id],
    ]);
  });

  it('leaves a session written to since the query alone', async () => {
    const { clock, stage, sweep, calls } = setUp();
    const s = await stage.open('telegram:1:dm', 'telegram', '1');
    clock.t += 11 * MINUTE;
    stage.cache.appended('telegram:1:dm', s.id, [], [{ role: 'user', content: 'hi' }], clock.t);
    expect(await stage.finalizeIdle({ sessionKey: 'telegram:1:dm', id: s.id, platform: 'telegram' })).toBe(false);
    expect(calls).toEqual([]);
    expect(await sweep.sweepOnce()).toEqual({ ended: 0, more: false });
  });

  it('the daily hour: reason daily', async () => {
    const { clock, stage, sweep, calls } = setUp({ mode: 'daily', idle_minutes: 1440, at_hour: 4 });
    await stage.open('telegram:1:dm', 'telegram', '1');
    clock.t += 17 * 60 * MINUTE; // 05:00 the next day
    expect((await sweep.sweepOnce()).ended).toBe(1);
    expect(calls[0]?.payload.reason).toBe('daily');
  });

  it('runs on its timer once started and not after stop; mode none never starts it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { clock, stage, sweep, calls } = setUp({ ...IDLE, idle_minutes: 1 });
    await stage.open('telegram:1:dm', 'telegram', '1');
    clock.t += 2 * MINUTE;
    sweep.start();
    await vi.advanceTimersByTimeAsync(6_000); // a tenth of the window
    expect(calls.map((c) => c.hook)).toEqual(['on_session_finalize']);
    await sweep.stop();
    await stage.open('telegram:2:dm', 'telegram', '2');
    clock.t += 2 * MINUTE;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toHaveLength(1);
    const none = setUp({ ...IDLE, mode: 'none' });
    none.sweep.start();
    expect(vi.getTimerCount()).toBe(0);
  });
});
