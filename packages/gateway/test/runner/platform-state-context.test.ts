// An adapter's `context.state` is its platform's slice of the gateway's platform state: get, set
// and delete reach the store under the platform's name, and never another platform's keys.
import { type PlatformAdapter, type PlatformContext, silentLogger } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { setUpPlatforms } from '../../src/runner/platform-setup.js';
import type { AdapterState } from '../../src/store/gateway-store.js';

function mapState(): AdapterState & { rows: Map<string, string> } {
  const rows = new Map<string, string>();
  return {
    rows,
    get: (platform, key) => rows.get(`${platform}/${key}`),
    set: (platform, key, value) => void rows.set(`${platform}/${key}`, value),
    delete: (platform, key) => void rows.delete(`${platform}/${key}`),
  };
}

describe("a platform's context.state", () => {
  it('reads, writes and deletes its own platform keys in the gateway store', () => {
    const store = mapState();
    store.set('other', 'cursor', 'theirs');
    const contexts: PlatformContext[] = [];
    setUpPlatforms({
      platforms: [
        {
          name: 'mine',
          hasCredentials: () => true,
          create(context) {
            contexts.push(context);
            return { name: 'mine' } as PlatformAdapter;
          },
        },
      ],
      platformSettings: {},
      env: {},
      logger: silentLogger,
      cacheDir: '/nonexistent',
      platformState: store,
      pluginCommands: () => new Map(),
      addRoute: () => undefined,
      now: () => 0,
    });
    const state = contexts[0]?.state;
    if (state === undefined) throw new Error('no context');
    state.set('cursor', '42');
    expect(state.get('cursor')).toBe('42');
    expect(store.rows.get('mine/cursor')).toBe('42');
    state.delete('cursor');
    expect(state.get('cursor')).toBeUndefined();
    expect([...store.rows]).toEqual([['other/cursor', 'theirs']]);
    state.delete('never-set'); // nothing when absent
  });
});
