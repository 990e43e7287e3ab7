import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { quietPeriod, waitFor } from '../../../test/helpers/wait-for.js';
import { backgroundCheckpoints } from '../src/background-checkpoint.js';
import { useStores } from './use-store.js';

const { open, freshPath } = useStores();

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
      await waitFor(
        () => {
          if (checkpoints.failure !== null) throw new Error(checkpoints.failure);
          return checkpoints.running;
        },
        { what: 'the background checkpoints to start' },
      );
      expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
      accept(200, 600);
      // the worker's checkpoints copy the pages into the database file itself
      await waitFor(() => statSync(path).size >= 600 * 1_000, { what: 'the WAL copied into the database file' });
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

  it('say why when the worker cannot run, and leave the automatic checkpoint on', async () => {
    const path = freshPath();
    const store = open({ backgroundCheckpoints: false }, path);
    // the worker opens the database by path: a path with no database makes it fail at once
    const checkpoints = backgroundCheckpoints(store.db, `${path}.missing`, {
      busyTimeoutMs: 1_000,
      startBytes: 0,
      checkMs: 10,
    });
    const failure = await waitFor(() => checkpoints.failure, { what: 'the worker to fail' });
    expect(failure).toMatch(/checkpoint worker failed: .*SQLITE_CANTOPEN/);
    expect(checkpoints.running).toBe(false);
    expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    checkpoints.close();
  });
});
