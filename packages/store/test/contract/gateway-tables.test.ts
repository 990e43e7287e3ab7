import type { PairingRequestResult } from '@hermes/store';
import { PAIRING_CODE_TTL_MS, PAIRING_FAILURE_WINDOW_MS } from '@hermes/store';
import { expect, it } from 'vitest';
import { fakeClock } from '../temp-dir.js';
import { forEachBackend } from './backends.js';

const event = (id: string) => ({ kind: 'text', platform: 'telegram', messageId: id, text: `hello ${id}` });

function codeOf(result: PairingRequestResult): string {
  if ('refused' in result) throw new Error(`refused: ${result.refused}`);
  return result.code;
}

/** 0, 1, 2, …: distinct, predictable codes */
function counter(): (max: number) => number {
  let n = 0;
  return (max) => n++ % max;
}

forEachBackend((open) => {
  it('inbox: accepts a key once, writes platform state in the same transaction, marks and counts', async () => {
    const clock = fakeClock();
    const store = await open({ now: clock.now });
    const first = await store.inbox.accept('telegram', '42', event('42'), {
      sessionKey: 'telegram:dm:7',
      state: { offset: '43' },
      owner: 'gw-a',
    });
    expect(first).toEqual({ accepted: true, id: expect.any(Number) });
    expect(await store.inbox.accept('telegram', '42', event('42'), { state: { offset: '44' } })).toEqual({
      accepted: false,
      reason: 'duplicate',
    });
    expect(await store.platformState.get('telegram', 'offset')).toBe('44');
    expect((await store.inbox.accept('discord', '42', event('42'))).accepted).toBe(true);
    if (!first.accepted) throw new Error('unreachable');
    expect(await store.inbox.get(first.id)).toEqual({
      id: first.id,
      platform: 'telegram',
      messageKey: '42',
      sessionKey: 'telegram:dm:7',
      payload: event('42'),
      status: 'accepted',
      acceptedAt: clock.t,
      updatedAt: clock.t,
      attempts: 0,
      owner: 'gw-a',
    });
    clock.t += 10;
    expect(await store.inbox.mark(first.id, 'processing')).toBe(true);
    expect(await store.inbox.mark(first.id, 'processing')).toBe(true);
    expect(await store.inbox.mark(999_999, 'done')).toBe(false);
    expect((await store.inbox.get(first.id))?.attempts).toBe(2);
    expect((await store.inbox.pending()).map((r) => [r.messageKey, r.status, r.owner])).toEqual([
      ['42', 'processing', 'gw-a'],
      ['42', 'accepted', null],
    ]);
    await store.inbox.mark(first.id, 'refused');
    expect(await store.inbox.countByStatus()).toEqual({
      accepted: 1,
      processing: 0,
      done: 0,
      skipped: 0,
      refused: 1,
      failed: 0,
      interrupted: 0,
    });
    clock.t += 1000;
    expect(await store.inbox.prune(clock.t)).toBe(1);
    expect(await store.inbox.get(first.id)).toBeUndefined();
    await expect(store.inbox.accept('telegram', 'x', undefined)).rejects.toThrow(/JSON-serializable/);
  });

  it('inbox: concurrent accepts of one key (two instances, one webhook retry) accept exactly one', async () => {
    const store = await open();
    const results = await Promise.all(
      Array.from({ length: 6 }, () => store.inbox.accept('slack', 'Ev1', event('Ev1'))),
    );
    expect(results.filter((r) => r.accepted)).toHaveLength(1);
  });

  it('platform state: set, replace, delete', async () => {
    const store = await open();
    expect(await store.platformState.get('telegram', 'k')).toBeUndefined();
    await store.platformState.set('telegram', 'k', 'v1');
    await store.platformState.set('telegram', 'k', 'v2');
    await store.platformState.set('discord', 'k', 'd');
    expect(await store.platformState.get('telegram', 'k')).toBe('v2');
    await store.platformState.delete('telegram', 'k');
    await store.platformState.delete('telegram', 'absent');
    expect(await store.platformState.get('telegram', 'k')).toBeUndefined();
    expect(await store.platformState.get('discord', 'k')).toBe('d');
  });

  it('outbox: enqueue is idempotent per (inbox row, chunk); delivered marks are final', async () => {
    const clock = fakeClock();
    const store = await open({ now: clock.now });
    const accepted = await store.inbox.accept('telegram', '1', event('1'));
    if (!accepted.accepted) throw new Error('unreachable');
    const chunks = [0, 1].map((chunkIndex) => ({
      inboxId: accepted.id,
      platform: 'telegram',
      chatId: '7',
      chunkIndex,
      text: `part ${chunkIndex}`,
      formatted: chunkIndex === 1,
    }));
    const first = await store.outbox.enqueue(chunks);
    expect(first.map((r) => [r.sent, r.existed, r.createdAt])).toEqual([
      [false, false, clock.t],
      [false, false, clock.t],
    ]);
    const [a, b] = first.map((r) => r.id) as [number, number];
    clock.t += 100;
    expect(await store.outbox.markSent(a, 'tg-1')).toBe(true);
    expect(await store.outbox.markSent(a, 'tg-1')).toBe(false);
    expect(await store.outbox.recordAttempt(b, 'timeout')).toBe(true);
    const again = await store.outbox.enqueue(chunks);
    expect(again).toEqual([
      { id: a, sent: true, createdAt: clock.t - 100, existed: true },
      { id: b, sent: false, createdAt: clock.t - 100, existed: true },
    ]);
    const unsolicited = await store.outbox.enqueue([
      { platform: 'discord', chatId: 'c', chunkIndex: 0, text: '/tmp/a.png', kind: 'media', threadId: 't' },
    ]);
    expect((await store.outbox.pending()).map((r) => r.id)).toEqual([b, unsolicited[0]?.id]);
    expect((await store.outbox.pending({ platform: 'discord' })).map((r) => [r.kind, r.threadId])).toEqual([
      ['media', 't'],
    ]);
    expect((await store.outbox.pendingCounts()).sort((x, y) => x.platform.localeCompare(y.platform))).toEqual([
      { platform: 'discord', count: 1 },
      { platform: 'telegram', count: 1 },
    ]);
    expect(await store.outbox.markFailed(b, 'gone')).toBe(true);
    expect(await store.outbox.markFailed(a, 'late')).toBe(false);
    const rows = await store.outbox.forInbox(accepted.id);
    expect(
      rows.map((r) => [r.chunkIndex, r.status, r.attempts, r.lastError, r.platformMessageId, r.formatted]),
    ).toEqual([
      [0, 'sent', 1, null, 'tg-1', false],
      [1, 'failed', 2, 'gone', null, true],
    ]);
    expect((await store.outbox.get(a))?.sentAt).toBe(clock.t);
    expect(await store.outbox.get(999_999)).toBeUndefined();
    clock.t += 1;
    expect(await store.outbox.prune(clock.t)).toBe(2);
  });

  it('pairing: codes, the same code again, approval once, rate limit, expiry, revoke and list', async () => {
    const clock = fakeClock();
    const store = await open({ now: clock.now, randomInt: counter() });
    const first = await store.pairing.request('telegram', 'u1', 'alice');
    expect(first).toEqual({ code: expect.any(String), expiresAt: clock.t + PAIRING_CODE_TTL_MS, isNew: true });
    expect(await store.pairing.request('telegram', 'u1', 'alice2')).toEqual({ ...first, isNew: false });
    expect(await store.pairing.approve('telegram', codeOf(first).toLowerCase())).toEqual({
      ok: true,
      userId: 'u1',
      userName: 'alice2',
    });
    expect(await store.pairing.isApproved('telegram', 'u1')).toBe(true);
    expect(await store.pairing.isApproved('discord', 'u1')).toBe(false);
    expect(await store.pairing.approve('telegram', codeOf(first))).toEqual({ ok: false, reason: 'unknown' });
    for (let i = 0; i < 4; i++) await store.pairing.approve('telegram', 'WRONGONE');
    expect(await store.pairing.approve('telegram', 'WRONGONE')).toEqual({
      ok: false,
      reason: 'rate_limited',
      retryAt: clock.t + PAIRING_FAILURE_WINDOW_MS,
    });
    clock.t += PAIRING_FAILURE_WINDOW_MS;
    const late = await store.pairing.request('telegram', 'u2');
    clock.t += PAIRING_CODE_TTL_MS;
    expect(await store.pairing.approve('telegram', codeOf(late))).toEqual({ ok: false, reason: 'expired' });
    expect(await store.pairing.revoke('telegram', 'u1')).toBe(true);
    expect(await store.pairing.revoke('telegram', 'u1')).toBe(false);
    expect(await store.pairing.list()).toEqual({ pending: [], approved: [] });
  });

  it('pairing: past the per-platform limit the oldest code expires, and its user is not answered again', async () => {
    const clock = fakeClock();
    const store = await open({ now: clock.now, randomInt: counter() });
    for (const user of ['a', 'b', 'c']) await store.pairing.request('slack', user);
    const d = await store.pairing.request('slack', 'd', 'dee');
    expect('code' in d && d.isNew).toBe(true);
    expect(await store.pairing.request('slack', 'a')).toEqual({
      refused: 'recently_answered',
      retryAt: clock.t + PAIRING_CODE_TTL_MS,
    });
    const { pending, approved } = await store.pairing.list();
    expect(pending.map((p) => p.userId)).toEqual(['b', 'c', 'd']);
    expect(pending[2]?.userName).toBe('dee');
    expect(approved).toEqual([]);
  });

  it('session search: every word must match (else any), the asking session left out, syntax is text', async () => {
    const store = await open();
    const a = await store.sessions.create({ key: 'a', platform: 'telegram', title: 'trip' });
    const b = await store.sessions.create({ key: 'b', platform: 'discord' });
    await store.transcripts.append(a.id, [
      { role: 'user', content: 'we planned the lisbon trip in may' },
      { role: 'assistant', content: 'lisbon in may: book the tram tour' },
      { role: 'tool', content: 'lisbon tool output', tool_call_id: 'c1' },
    ]);
    await store.transcripts.append(b.id, [{ role: 'user', content: 'porto wine tasting' }]);
    const both = await store.sessionSearch.search('lisbon may', { limit: 10 });
    expect(both.map((h) => [h.sessionId, h.role, h.platform, h.title])).toEqual(
      expect.arrayContaining([
        [a.id, 'user', 'telegram', 'trip'],
        [a.id, 'assistant', 'telegram', 'trip'],
      ]),
    );
    expect(both).toHaveLength(2);
    expect(both[0]?.snippet).toContain('[lisbon]');
    const any = await store.sessionSearch.search('porto atlantis', { limit: 10 });
    expect(any.map((h) => h.sessionId)).toEqual([b.id]);
    expect(await store.sessionSearch.search('lisbon', { limit: 10, excludeSessionId: a.id })).toEqual([]);
    expect(await store.sessionSearch.search('" * NEAR( -:', { limit: 10 })).toEqual([]);
    expect(await store.sessionSearch.search('"porto" OR', { limit: 10 })).toHaveLength(1);
  });
});
