import { INBOX_KEEP_MS, PAIRING_CODE_TTL_MS, PAIRING_FAILURE_WINDOW_MS } from '@hermes/store';
import { expect, it } from 'vitest';
import { forEachBackend } from './backends.js';

const DAY = 24 * 60 * 60 * 1000;

forEachBackend((open) => {
  it('retention: idle sessions with their messages, finished rows past the dedupe window, spent pairing rows', async () => {
    const clock = { t: 1_800_000_000_000 };
    const store = await open({ now: () => clock.t });
    const old = await store.sessions.create({ key: 'a', platform: 'telegram' });
    await store.transcripts.append(old.id, [{ role: 'user', content: 'old' }]);
    const done = await store.inbox.accept('telegram', 'done', {});
    const open_ = await store.inbox.accept('telegram', 'open', {});
    if (!done.accepted || !open_.accepted) throw new Error('unreachable');
    await store.inbox.mark(done.id, 'done');
    const [sent] = await store.outbox.enqueue([
      { inboxId: done.id, platform: 'telegram', chatId: '1', chunkIndex: 0, text: 'x' },
    ]);
    await store.outbox.markSent(sent?.id ?? 0, '9');
    await store.pairing.request('telegram', 'u1');
    await store.pairing.approve('telegram', 'WRONGCDE');
    clock.t += 10 * DAY;
    const recent = await store.sessions.create({ key: 'b', platform: 'telegram' });
    await store.transcripts.append(recent.id, [{ role: 'user', content: 'new' }]);
    const cutoff = clock.t - 5 * DAY;
    const expected = { sessions: 1, messages: 1, inbox: 1, outbox: 1, pairingRequests: 1, pairingFailures: 1 };
    expect(await store.pruner.prune(cutoff, { dryRun: true })).toEqual(expected);
    expect(await store.sessions.get(old.id)).toBeDefined();
    expect(await store.pruner.prune(cutoff)).toEqual(expected);
    expect(await store.sessions.get(old.id)).toBeUndefined();
    expect(await store.transcripts.count(old.id)).toBe(0);
    expect(await store.transcripts.count(recent.id)).toBe(1);
    expect(await store.inbox.countByStatus()).toMatchObject({ accepted: 1, done: 0 });
    expect(await store.pairing.list()).toEqual({ pending: [], approved: [] });
    // nothing younger than the dedupe window goes, whatever the cutoff
    const fresh = await store.inbox.accept('telegram', 'fresh', {});
    if (fresh.accepted) await store.inbox.mark(fresh.id, 'done');
    expect((await store.pruner.prune(clock.t + DAY)).inbox).toBe(0);
    expect(INBOX_KEEP_MS).toBeLessThan(5 * DAY);
    expect(PAIRING_CODE_TTL_MS + PAIRING_FAILURE_WINDOW_MS).toBeLessThan(10 * DAY);
  });
});
