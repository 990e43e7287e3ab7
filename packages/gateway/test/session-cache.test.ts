import type { ChatMessage } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { messageBytes, SessionCache } from '../src/sessions/session-cache.js';

const user = (content: string): ChatMessage => ({ role: 'user', content });

describe('SessionCache', () => {
  it('keeps the transcript of the active session and appends committed turns', () => {
    const cache = new SessionCache();
    const entry = cache.replaced('k', { id: 's1', updatedAt: 1, history: [] });
    cache.appended('k', 's1', entry.history ?? [], [user('a')], 5);
    expect(cache.get('k')).toEqual({ id: 's1', updatedAt: 5, history: [user('a')] });
  });

  it('freezes the messages it keeps (a first fill from the store too): the model request reuses their bytes', () => {
    const cache = new SessionCache();
    cache.replaced('k', { id: 's1', updatedAt: 1, history: null });
    const read = [user('from the store')];
    cache.appended('k', 's1', read, [user('new')], 5);
    const kept = cache.get('k')?.history ?? [];
    expect(kept.map((m) => m.content)).toEqual(['from the store', 'new']);
    expect(kept.every((m) => Object.isFrozen(m))).toBe(true);
  });

  it('ignores an append for a session that is no longer the active one (after /new)', () => {
    const cache = new SessionCache();
    cache.replaced('k', { id: 's1', updatedAt: 1, history: [] });
    cache.replaced('k', { id: 's2', updatedAt: 2, history: [] });
    cache.appended('k', 's1', [], [user('late')], 9);
    expect(cache.get('k')).toEqual({ id: 's2', updatedAt: 2, history: [] });
  });

  it('evicts the least recently used key beyond its bound, and forgets on demand', () => {
    const cache = new SessionCache({ maxSessions: 2 });
    cache.replaced('a', { id: '1', updatedAt: 0, history: null });
    cache.replaced('b', { id: '2', updatedAt: 0, history: null });
    cache.get('a'); // a is now the most recent
    cache.replaced('c', { id: '3', updatedAt: 0, history: null });
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')?.id).toBe('1');
    cache.forget('a');
    expect(cache.get('a')).toBeUndefined();
  });

  it('bounds the transcripts kept by their size: the least recently used go first', () => {
    const text = 'x'.repeat(1000);
    const per = messageBytes(user(text));
    const cache = new SessionCache({ maxBytes: per * 5 });
    for (const key of ['a', 'b', 'c']) {
      const entry = cache.replaced(key, { id: key, updatedAt: 0, history: [] });
      cache.appended(key, key, entry.history ?? [], [user(text), user(text)], 1);
    }
    // 6 messages of budget 5: a, the least recently used, went
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')?.history).toHaveLength(2);
    expect(cache.bytes).toBe(per * 4);
    // c grows to the budget exactly: nothing goes
    cache.get('c');
    cache.appended('c', 'c', cache.get('c')?.history ?? [], [user(text)], 2);
    expect(cache.get('b')?.history).toHaveLength(2);
    expect(cache.bytes).toBe(per * 5);
    cache.appended('b', 'b', cache.get('b')?.history ?? [], [user(text)], 3);
    // b grew to 3: c (now the least recently used) went
    expect(cache.get('c')).toBeUndefined();
    expect(cache.bytes).toBe(per * 3);
  });

  it('keeps the session but not a transcript larger than the whole budget (the next turn reads the store)', () => {
    const cache = new SessionCache({ maxBytes: 10_000 });
    const small = cache.replaced('small', { id: 's', updatedAt: 0, history: [] });
    cache.appended('small', 's', small.history ?? [], [user('hi')], 1);
    const big = cache.replaced('big', { id: 'b', updatedAt: 0, history: [] });
    cache.appended('big', 'b', big.history ?? [], [user('y'.repeat(20_000))], 1);
    expect(cache.get('big')).toEqual({ id: 'b', updatedAt: 1, history: null });
    expect(cache.get('small')?.history).toEqual([user('hi')]);
    expect(cache.bytes).toBe(messageBytes(user('hi')));
    // its next turn fills it from the store: dropped again, the small one still kept
    cache.appended('big', 'b', [user('y'.repeat(20_000))], [user('more')], 2);
    expect(cache.get('big')?.history).toBeNull();
    expect(cache.get('small')?.history).toHaveLength(1);
  });

  it('weighs tool calls by their arguments', () => {
    const call: ChatMessage = {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read_file', arguments: 'z'.repeat(5000) } }],
    };
    expect(messageBytes(call)).toBeGreaterThan(5000);
    expect(messageBytes(user('a'))).toBeLessThan(200);
  });
});
