import { describe, expect, it } from 'vitest';
import { fakeClock } from './temp-dir.js';
import { useStores } from './use-store.js';

const { open, freshPath } = useStores();

const event = (id: string) => ({ kind: 'text', platform: 'telegram', messageId: id, text: `hello ${id}` });

describe('store.inbox', () => {
  it('accepts a message once and refuses the same (platform, key) again', () => {
    const clock = fakeClock();
    const store = open({ now: clock.now });
    const first = store.inbox.accept('telegram', '42', event('42'), { sessionKey: 'telegram:dm:7' });
    expect(first).toEqual({ accepted: true, id: expect.any(Number) });
    expect(store.inbox.accept('telegram', '42', event('42'))).toEqual({ accepted: false, reason: 'duplicate' });
    // The key is per platform.
    expect(store.inbox.accept('discord', '42', event('42')).accepted).toBe(true);
    if (!first.accepted) throw new Error('unreachable');
    expect(store.inbox.get(first.id)).toEqual({
      id: first.id,
      platform: 'telegram',
      messageKey: '42',
      sessionKey: 'telegram:dm:7',
      payload: event('42'),
      status: 'accepted',
      acceptedAt: clock.t,
      updatedAt: clock.t,
      attempts: 0,
      owner: null,
    });
    expect(store.inbox.countByStatus()).toEqual({
      accepted: 2,
      processing: 0,
      done: 0,
      skipped: 0,
      refused: 0,
      failed: 0,
      interrupted: 0,
    });
  });

  it('writes platform state in the same transaction, for duplicates too', () => {
    const store = open();
    store.inbox.accept('telegram', '100', event('100'), { state: { offset: '101' } });
    expect(store.platformState.get('telegram', 'offset')).toBe('101');
    expect(store.inbox.accept('telegram', '100', event('100'), { state: { offset: '101' } }).accepted).toBe(false);
    store.inbox.accept('telegram', '101', event('101'), { state: { offset: '102' } });
    expect(store.platformState.get('telegram', 'offset')).toBe('102');
  });

  it('is atomic: when the state write fails, the message is not accepted either', () => {
    const store = open();
    store.db.exec(
      "CREATE TEMP TRIGGER refuse_state BEFORE INSERT ON platform_state BEGIN SELECT RAISE(ABORT, 'disk full'); END",
    );
    expect(() => store.inbox.accept('telegram', '7', event('7'), { state: { offset: '8' } })).toThrow(/disk full/);
    expect(store.inbox.countByStatus().accepted).toBe(0);
    expect(store.platformState.get('telegram', 'offset')).toBeUndefined();
    store.db.exec('DROP TRIGGER refuse_state');
    // Redelivered after the failure, it is new, not a duplicate.
    expect(store.inbox.accept('telegram', '7', event('7'), { state: { offset: '8' } }).accepted).toBe(true);
  });

  it('joins an enclosing store.transaction (a savepoint), rolling back with it', () => {
    const store = open();
    expect(() =>
      store.transaction(() => {
        store.inbox.accept('telegram', '1', event('1'));
        throw new Error('handler crashed');
      }),
    ).toThrow('handler crashed');
    expect(store.inbox.accept('telegram', '1', event('1')).accepted).toBe(true);
  });

  it('marks statuses, counting processing attempts, and lists the unfinished oldest first', () => {
    const clock = fakeClock();
    const store = open({ now: clock.now });
    const ids = ['a', 'b', 'c', 'd'].map((key) => {
      clock.t += 1_000;
      const result = store.inbox.accept('slack', key, event(key));
      if (!result.accepted) throw new Error('expected accepted');
      return result.id;
    });
    const [a, b, c, d] = ids as [number, number, number, number];
    clock.t += 1_000;
    expect(store.inbox.mark(c, 'processing')).toBe(true);
    expect(store.inbox.mark(a, 'done')).toBe(true);
    expect(store.inbox.mark(d, 'skipped')).toBe(true);
    expect(store.inbox.mark(9_999, 'done')).toBe(false);
    expect(store.inbox.pending().map((r) => [r.messageKey, r.status])).toEqual([
      ['b', 'accepted'],
      ['c', 'processing'],
    ]);
    store.inbox.mark(c, 'interrupted');
    store.inbox.mark(c, 'processing');
    const row = store.inbox.get(c);
    expect(row).toMatchObject({ status: 'processing', attempts: 2, updatedAt: clock.t });
    expect(store.inbox.get(b)?.attempts).toBe(0);
    expect(store.inbox.countByStatus()).toMatchObject({ accepted: 1, processing: 1, done: 1, skipped: 1 });
  });

  it('keeps dedupe keys and unfinished rows across a reopen (a restart never answers twice)', () => {
    const path = freshPath();
    const first = open({}, path);
    const accepted = first.inbox.accept('telegram', '5', event('5'));
    if (!accepted.accepted) throw new Error('expected accepted');
    first.inbox.mark(accepted.id, 'processing');
    first.close();

    const second = open({}, path);
    expect(second.inbox.accept('telegram', '5', event('5'))).toEqual({ accepted: false, reason: 'duplicate' });
    expect(second.inbox.pending()).toEqual([
      expect.objectContaining({ id: accepted.id, status: 'processing', payload: event('5') }),
    ]);
  });

  it('sees another connection’s accept at once (two processes share the file)', () => {
    const path = freshPath();
    const gateway = open({}, path);
    const other = open({}, path);
    expect(gateway.inbox.accept('discord', 'm1', event('m1')).accepted).toBe(true);
    expect(other.inbox.accept('discord', 'm1', event('m1')).accepted).toBe(false);
  });

  it('prunes finished rows only, older than the cutoff', () => {
    const clock = fakeClock();
    const store = open({ now: clock.now });
    const old = store.inbox.accept('telegram', 'old', event('old'));
    const stuck = store.inbox.accept('telegram', 'stuck', event('stuck'));
    if (!old.accepted || !stuck.accepted) throw new Error('expected accepted');
    store.inbox.mark(old.id, 'done');
    clock.t += 10_000;
    store.inbox.accept('telegram', 'new', event('new'));
    expect(store.inbox.prune(clock.t)).toBe(1);
    expect(store.inbox.get(old.id)).toBeUndefined();
    expect(store.inbox.get(stuck.id)?.status).toBe('accepted');
  });

  it('refuses a payload that is not JSON-serializable', () => {
    const store = open();
    expect(() => store.inbox.accept('telegram', 'x', undefined)).toThrow(TypeError);
  });
});
