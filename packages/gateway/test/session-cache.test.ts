import type { ChatMessage } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { SessionCache } from '../src/sessions/session-cache.js';

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
    const cache = new SessionCache(2);
    cache.replaced('a', { id: '1', updatedAt: 0, history: null });
    cache.replaced('b', { id: '2', updatedAt: 0, history: null });
    cache.get('a'); // a is now the most recent
    cache.replaced('c', { id: '3', updatedAt: 0, history: null });
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')?.id).toBe('1');
    cache.forget('a');
    expect(cache.get('a')).toBeUndefined();
  });
});
