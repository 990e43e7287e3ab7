// Retention at the store level, on a fake clock: what store.pruner deletes and what it keeps.
import { INBOX_KEEP_MS, PAIRING_CODE_TTL_MS, PAIRING_FAILURE_WINDOW_MS } from '@hermes/store';
import { describe, expect, it } from 'vitest';
import { useStores } from './use-store.js';

const DAY = 24 * 60 * 60 * 1000;
const { open } = useStores();

describe('store.pruner', () => {
  it('deletes idle sessions with their messages; keeps recent ones; dry run deletes nothing', () => {
    const clock = { t: 1_800_000_000_000 };
    const store = open({ now: () => clock.t });
    const old = store.sessions.create({ key: 'a', platform: 'telegram' });
    store.transcripts.append(old.id, [{ role: 'user', content: 'old' }]);
    clock.t += 10 * DAY;
    const recent = store.sessions.create({ key: 'b', platform: 'telegram' });
    store.transcripts.append(recent.id, [{ role: 'user', content: 'new' }]);
    const cutoff = clock.t - 5 * DAY;
    expect(store.pruner.prune(cutoff, { dryRun: true })).toMatchObject({ sessions: 1, messages: 1 });
    expect(store.sessions.get(old.id)).toBeDefined();
    expect(store.pruner.prune(cutoff)).toMatchObject({ sessions: 1, messages: 1 });
    expect(store.sessions.get(old.id)).toBeUndefined();
    expect(store.transcripts.count(old.id)).toBe(0);
    expect(store.transcripts.count(recent.id)).toBe(1);
  });

  it('finished inbox and outbox rows go, never unfinished ones nor any younger than INBOX_KEEP_MS', () => {
    const clock = { t: 1_800_000_000_000 };
    const store = open({ now: () => clock.t });
    const accept = (key: string) => {
      const r = store.inbox.accept('telegram', key, { key });
      if (!r.accepted) throw new Error('duplicate');
      return r.id;
    };
    const done = accept('done');
    store.inbox.mark(done, 'done');
    accept('unanswered');
    const [sent] = store.outbox.enqueue([
      { inboxId: done, platform: 'telegram', chatId: '1', threadId: null, chunkIndex: 0, text: 'x', formatted: false },
    ]);
    store.outbox.markSent(sent?.id ?? 0, '9');
    // a cutoff in the future: still nothing younger than the dedupe window goes
    clock.t += INBOX_KEEP_MS - 1;
    expect(store.pruner.prune(clock.t + DAY)).toMatchObject({ inbox: 0, outbox: 0 });
    clock.t += 2;
    expect(store.pruner.prune(clock.t)).toMatchObject({ inbox: 1, outbox: 1 });
    expect(store.inbox.countByStatus()).toMatchObject({ accepted: 1, done: 0 });
  });

  it('pairing: spent requests and old failures go; a code expired early stays its hour (one reply per stranger)', () => {
    const clock = { t: 1_800_000_000_000 };
    const store = open({ now: () => clock.t });
    for (const user of ['u1', 'u2', 'u3']) {
      store.pairing.request('telegram', user);
      clock.t += 1;
    }
    store.pairing.request('telegram', 'u4'); // expires u1's code early
    store.pairing.approve('telegram', 'WRONGCDE');
    expect(store.pruner.prune(clock.t)).toMatchObject({ pairingRequests: 0, pairingFailures: 0 });
    expect(store.pairing.request('telegram', 'u1')).toMatchObject({ refused: 'recently_answered' });
    clock.t += Math.max(PAIRING_CODE_TTL_MS, PAIRING_FAILURE_WINDOW_MS);
    expect(store.pruner.prune(clock.t)).toMatchObject({ pairingRequests: 4, pairingFailures: 1 });
  });
});
