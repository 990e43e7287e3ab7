import { describe, expect, it } from 'vitest';
import { useStores } from './use-store.js';

const { open, freshPath } = useStores();

describe('store.platformState', () => {
  it('gets, sets and replaces values per platform, and keeps them across a reopen', () => {
    const path = freshPath();
    const first = open({}, path);
    expect(first.platformState.get('telegram', 'offset')).toBeUndefined();
    first.platformState.set('telegram', 'offset', '10');
    first.platformState.set('telegram', 'offset', '11');
    first.platformState.set('discord', 'offset', 'x');
    first.close();
    const second = open({}, path);
    expect(second.platformState.get('telegram', 'offset')).toBe('11');
    expect(second.platformState.get('discord', 'offset')).toBe('x');
  });
});
