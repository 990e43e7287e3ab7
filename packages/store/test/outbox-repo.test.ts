import type { NewOutboxRow } from '@hermes/store';
import { describe, expect, it } from 'vitest';
import { fakeClock } from './temp-dir.js';
import { useStores } from './use-store.js';

const { open, freshPath } = useStores();

const reply = (inboxId: number | null, texts: string[]): NewOutboxRow[] =>
  texts.map((text, chunkIndex) => ({ inboxId, platform: 'telegram', chatId: '7', chunkIndex, text }));

function acceptedId(result: { accepted: true; id: number } | { accepted: false }): number {
  if (!result.accepted) throw new Error('expected accepted');
  return result.id;
}

describe('store.outbox', () => {
  it('enqueues chunks in one transaction and reads them back', () => {
    const clock = fakeClock();
    const store = open({ now: clock.now });
    const inboxId = acceptedId(store.inbox.accept('telegram', '1', {}));
    const ids = store.outbox
      .enqueue([
        { inboxId, platform: 'telegram', chatId: '7', threadId: '3', chunkIndex: 0, text: '*one*', formatted: true },
        { inboxId, platform: 'telegram', chatId: '7', chunkIndex: 1, text: 'two' },
      ])
      .map((r) => r.id);
    expect(ids).toHaveLength(2);
    expect(store.outbox.forInbox(inboxId)).toEqual([
      {
        id: ids[0],
        inboxId,
        platform: 'telegram',
        chatId: '7',
        threadId: '3',
        chunkIndex: 0,
        text: '*one*',
        formatted: true,
        kind: 'text',
        status: 'pending',
        attempts: 0,
        lastError: null,
        platformMessageId: null,
        createdAt: clock.t,
        sentAt: null,
      },
      expect.objectContaining({ id: ids[1], chunkIndex: 1, threadId: null, formatted: false }),
    ]);
  });

  it('is idempotent per (inbox_id, chunk_index): a redone reply returns the existing rows', () => {
    const store = open();
    const inboxId = acceptedId(store.inbox.accept('telegram', '1', {}));
    const first = store.outbox.enqueue(reply(inboxId, ['a', 'b']));
    expect(first.map((r) => r.sent)).toEqual([false, false]);
    store.outbox.markSent(first[0]?.id ?? -1, 'tg-1');
    const again = store.outbox.enqueue(reply(inboxId, ['a', 'b', 'c']));
    expect(again.slice(0, 2).map((r) => r.id)).toEqual(first.map((r) => r.id));
    // the redone reply learns which chunks were already delivered
    expect(again.map((r) => r.sent)).toEqual([true, false, false]);
    expect(store.outbox.forInbox(inboxId).map((r) => [r.chunkIndex, r.status])).toEqual([
      [0, 'sent'],
      [1, 'pending'],
      [2, 'pending'],
    ]);
    // Rows without an inbox id (unsolicited sends) are never merged.
    const loose = store.outbox.enqueue(reply(null, ['x', 'x']));
    expect(new Set(loose.map((r) => r.id)).size).toBe(2);
  });

  it('rolls the whole batch back when one row is refused', () => {
    const store = open();
    expect(() =>
      store.outbox.enqueue([
        { platform: 'telegram', chatId: '7', chunkIndex: 0, text: 'fine' },
        { inboxId: 12_345, platform: 'telegram', chatId: '7', chunkIndex: 1, text: 'no such inbox row' },
      ]),
    ).toThrow(/FOREIGN KEY/);
    expect(store.outbox.pending()).toEqual([]);
  });

  it('marks sent, records retryable attempts and failures; pending filters by platform', () => {
    const clock = fakeClock();
    const store = open({ now: clock.now });
    const [a, b, c] = store.outbox
      .enqueue([
        { platform: 'telegram', chatId: '1', chunkIndex: 0, text: 'a' },
        { platform: 'discord', chatId: '2', chunkIndex: 0, text: 'b' },
        { platform: 'telegram', chatId: '3', chunkIndex: 0, text: 'c' },
      ])
      .map((r) => r.id) as [number, number, number];
    expect(store.outbox.recordAttempt(a, '429 Too Many Requests')).toBe(true);
    clock.t += 5_000;
    expect(store.outbox.markSent(a, 'm-1')).toBe(true);
    expect(store.outbox.markSent(a, 'm-2')).toBe(false);
    expect(store.outbox.get(a)).toMatchObject({
      status: 'sent',
      attempts: 2,
      lastError: '429 Too Many Requests',
      platformMessageId: 'm-1',
      sentAt: clock.t,
    });
    expect(store.outbox.recordAttempt(a, 'late')).toBe(false);
    expect(store.outbox.markFailed(a, 'late')).toBe(false);
    expect(store.outbox.markFailed(c, '403 bot was blocked')).toBe(true);
    expect(store.outbox.get(c)).toMatchObject({ status: 'failed', attempts: 1, lastError: '403 bot was blocked' });
    // A failed row can still be retried by a redone reply and then marked sent.
    expect(store.outbox.recordAttempt(c, '500')).toBe(true);
    expect(store.outbox.get(c)).toMatchObject({ status: 'failed', attempts: 2, lastError: '500' });
    expect(store.outbox.pending().map((r) => r.id)).toEqual([b]);
    expect(store.outbox.pending({ platform: 'telegram' })).toEqual([]);
    expect(store.outbox.markSent(c, 'm-3')).toBe(true);
    expect(store.outbox.get(c)).toMatchObject({ status: 'sent', attempts: 3, platformMessageId: 'm-3' });
    expect(store.outbox.pending({ platform: 'discord' }).map((r) => r.text)).toEqual(['b']);
  });

  it('keeps pending rows and delivered marks across a reopen', () => {
    const path = freshPath();
    const first = open({}, path);
    const [sent, waiting] = first.outbox.enqueue(reply(null, ['sent', 'waiting'])).map((r) => r.id) as [number, number];
    first.outbox.markSent(sent, 'm-1');
    first.close();
    const second = open({}, path);
    expect(second.outbox.pending().map((r) => r.id)).toEqual([waiting]);
    expect(second.outbox.get(sent)?.status).toBe('sent');
  });

  it('prunes delivered and failed rows older than the cutoff, never pending ones', () => {
    const clock = fakeClock();
    const store = open({ now: clock.now });
    const [sent, failed, pending] = store.outbox.enqueue(reply(null, ['s', 'f', 'p'])).map((r) => r.id) as [
      number,
      number,
      number,
    ];
    store.outbox.markSent(sent, null);
    store.outbox.markFailed(failed, 'gone');
    clock.t += 1;
    expect(store.outbox.prune(clock.t)).toBe(2);
    expect(store.outbox.pending().map((r) => r.id)).toEqual([pending]);
  });

  it('keeps outbox rows when their inbox row is pruned (inbox_id becomes NULL)', () => {
    const clock = fakeClock();
    const store = open({ now: clock.now });
    const inboxId = acceptedId(store.inbox.accept('telegram', '1', {}));
    const [id] = store.outbox.enqueue(reply(inboxId, ['a'])).map((r) => r.id) as [number];
    store.inbox.mark(inboxId, 'done');
    clock.t += 1;
    store.inbox.prune(clock.t);
    expect(store.outbox.get(id)).toMatchObject({ inboxId: null, status: 'pending' });
  });
});
