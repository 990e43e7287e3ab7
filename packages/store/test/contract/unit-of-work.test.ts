// The unit of work (`AsyncStore.commit`) and recovery (`inbox.claimUnfinished`) on both backends:
// one transaction per unit, each write's result in order, units landing in the order they were
// issued however long each takes, accepted rows owned by the committing instance, and the claims
// a restart or a second instance makes.
import type { StoreWrite } from '@hermes/store';
import { expect, it } from 'vitest';
import { fakeClock } from '../temp-dir.js';
import { forEachBackend } from './backends.js';

const event = (id: string) => ({ kind: 'text', platform: 'telegram', messageId: id, text: `hello ${id}` });

forEachBackend((open) => {
  it('commit: every write of a unit, its results in order', async () => {
    const store = await open();
    const session = await store.sessions.create({ key: 'telegram:1', platform: 'telegram' });
    const [accepted] = await store.commit(
      [{ kind: 'inbox.accept', platform: 'telegram', key: 'm1', payload: event('m1'), state: { offset: '2' } }],
      { owner: 'gw-1' },
    );
    expect(accepted).toEqual({ accepted: true, id: expect.any(Number) });
    const inboxId = (accepted as { id: number }).id;
    const results = await store.commit([
      { kind: 'inbox.mark', id: inboxId, status: 'processing' },
      { kind: 'transcripts.append', sessionId: session.id, messages: [{ role: 'user', content: 'hi' }] },
      { kind: 'outbox.enqueue', rows: [{ inboxId, platform: 'telegram', chatId: '1', chunkIndex: 0, text: 'yo' }] },
      { kind: 'platformState.set', platform: 'telegram', key: 'stream', value: '[7]' },
    ]);
    expect(results).toEqual([
      true,
      1,
      [{ id: expect.any(Number), sent: false, createdAt: expect.any(Number), existed: false }],
      undefined,
    ]);
    const outboxId = (results[2] as { id: number }[])[0]?.id ?? -1;
    expect(
      await store.commit([
        { kind: 'outbox.recordAttempt', id: outboxId, error: 'timeout' },
        { kind: 'outbox.markSent', id: outboxId, platformMessageId: 'tg-9' },
        { kind: 'outbox.markFailed', id: outboxId, error: 'late' },
        { kind: 'platformState.delete', platform: 'telegram', key: 'stream' },
        { kind: 'inbox.mark', id: inboxId, status: 'done' },
      ]),
    ).toEqual([true, true, false, undefined, true]);
    expect(await store.inbox.get(inboxId)).toMatchObject({ status: 'done', owner: 'gw-1', attempts: 1 });
    expect(await store.platformState.all()).toEqual([{ platform: 'telegram', key: 'offset', value: '2' }]);
    expect(await store.transcripts.list(session.id)).toEqual([{ role: 'user', content: 'hi' }]);
    expect((await store.outbox.get(outboxId))?.platformMessageId).toBe('tg-9');
  });

  it('commit: a failing write rolls back its whole unit, never another unit, and the next unit commits', async () => {
    const store = await open();
    const [accepted] = await store.commit([{ kind: 'inbox.accept', platform: 'api', key: 'k1', payload: {} }]);
    const id = (accepted as { id: number }).id;
    const failing = store.commit([
      { kind: 'inbox.mark', id, status: 'done' },
      { kind: 'platformState.set', platform: 'api', key: 'offset', value: '7' },
      { kind: 'transcripts.append', sessionId: 'no such session', messages: [{ role: 'user', content: 'x' }] },
    ]);
    // issued in the same event-loop turn: on SQLite in the same group transaction, its own savepoint
    const other = store.commit([{ kind: 'platformState.set', platform: 'api', key: 'other', value: 'kept' }]);
    await expect(failing).rejects.toThrow(/unknown session|FOREIGN KEY/);
    await other;
    expect((await store.inbox.get(id))?.status).toBe('accepted');
    expect(await store.platformState.get('api', 'offset')).toBeUndefined();
    expect(await store.platformState.get('api', 'other')).toBe('kept');
    const [next] = await store.commit([{ kind: 'inbox.accept', platform: 'api', key: 'k2', payload: {} }]);
    expect(next).toEqual({ accepted: true, id: expect.any(Number) });
  });

  // A platform's state written whole by successive accepts: Discord's list of catch-up channels lost
  // a channel when a slow earlier unit committed after a quick later one.
  it('commit: units land in the order they were issued, however long each takes', async () => {
    const store = await open();
    for (let round = 0; round < 5; round += 1) {
      const slow: StoreWrite[] = Array.from({ length: 60 }, (_, i) => ({
        kind: 'platformState.set',
        platform: 'discord',
        key: `filler:${i}`,
        value: String(round),
      }));
      slow.push({ kind: 'platformState.set', platform: 'discord', key: 'catch_up', value: `first-${round}` });
      const quick: StoreWrite[] = [
        { kind: 'platformState.set', platform: 'discord', key: 'catch_up', value: `second-${round}` },
      ];
      await Promise.all([store.commit(slow), store.commit(quick)]);
      expect(await store.platformState.get('discord', 'catch_up')).toBe(`second-${round}`);
    }
  });

  it('claimUnfinished: the only instance takes every unfinished row of its platforms, owners unchanged', async () => {
    const clock = fakeClock();
    const store = await open({ now: clock.now });
    const ids: number[] = [];
    for (const [platform, key, owner] of [
      ['telegram', 'a', undefined],
      ['discord', 'b', 'gw-old'],
      ['telegram', 'c', undefined],
      ['telegram', 'd', undefined],
    ] as const) {
      clock.t += 1;
      const [r] = await store.commit([{ kind: 'inbox.accept', platform, key, payload: event(key) }], { owner });
      ids.push((r as { id: number }).id);
    }
    await store.inbox.mark(ids[3] ?? -1, 'done');
    const all = await store.inbox.claimUnfinished({});
    expect(all.map((r) => [r.messageKey, r.owner])).toEqual([
      ['a', null],
      ['b', 'gw-old'],
      ['c', null],
    ]);
    expect((await store.inbox.claimUnfinished({ platforms: ['telegram'] })).map((r) => r.messageKey)).toEqual([
      'a',
      'c',
    ]);
    expect(await store.inbox.claimUnfinished({ platforms: [] })).toEqual([]);
  });

  it('claimUnfinished: an owner takes rows nobody owns and its own from before its start', async () => {
    const clock = fakeClock();
    const store = await open({ now: clock.now });
    const accept = async (key: string, owner?: string) => {
      clock.t += 1;
      await store.commit([{ kind: 'inbox.accept', platform: 'slack', key, payload: event(key) }], { owner });
    };
    await accept('nobody');
    await accept('mine-before', 'me');
    const startedAt = clock.t + 1;
    await accept('mine-after', 'me');
    await accept('other', 'gw-other');
    const start = { owner: 'me', platforms: ['slack'], acceptedBefore: startedAt } as const;
    const claimed = await store.inbox.claimUnfinished(start);
    expect(claimed.map((r) => [r.messageKey, r.owner])).toEqual([
      ['nobody', 'me'],
      ['mine-before', 'me'],
    ]);
    // what another instance's start claim leaves: only what nobody owns (none now) and its own
    expect(await store.inbox.claimUnfinished({ ...start, owner: 'gw-other' })).toEqual([]);
    // a second start under the same id takes its rows again (a restart)
    expect((await store.inbox.claimUnfinished(start)).map((r) => r.messageKey)).toEqual(['nobody', 'mine-before']);
  });
});
