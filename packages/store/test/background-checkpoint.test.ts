import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { quietPeriod } from '../../../test/helpers/wait-for.js';
import { backgroundCheckpoints } from '../src/background-checkpoint.js';
import { useStores } from './use-store.js';

const { open, freshPath } = useStores();

async function eventually(check: () => boolean, timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return check();
}

describe('background WAL checkpoints', () => {
  it('start once the WAL grows, switch the automatic checkpoint off, and copy the WAL into the database', async () => {
    const path = freshPath();
    const store = open({ backgroundCheckpoints: false }, path);
    expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    const checkpoints = backgroundCheckpoints(store.db, path, {
      busyTimeoutMs: 1_000,
      startBytes: 64 * 1024,
      checkMs: 10,
      intervalMs: 10,
    });
    try {
      const payload = { text: 'x'.repeat(1_000) };
      const accept = (from: number, to: number) => {
        for (let i = from; i < to; i++) store.inbox.accept('telegram', `m${i}`, payload);
      };
      accept(0, 200);
      expect(await eventually(() => checkpoints.running)).toBe(true);
      expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
      accept(200, 600);
      // the worker's checkpoints copy the pages into the database file itself
      expect(await eventually(() => statSync(path).size >= 600 * 1_000)).toBe(true);
    } finally {
      checkpoints.close();
    }
    expect(checkpoints.running).toBe(false);
    store.close();
    const reopened = open({}, path);
    expect(reopened.inbox.countByStatus().accepted).toBe(600);
  });

  it('never start for a database that sees no writes', async () => {
    const path = freshPath();
    const store = open({ backgroundCheckpoints: false }, path);
    const checkpoints = backgroundCheckpoints(store.db, path, { busyTimeoutMs: 1_000, checkMs: 10 });
    await quietPeriod(100, 'ten checks (checkMs 10) of a database that sees no writes');
    expect(checkpoints.running).toBe(false);
    expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    checkpoints.close();
  });
});
