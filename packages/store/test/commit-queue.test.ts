import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asyncSqliteStore, openStore, type Store } from '@hermes/store';
import { afterEach, describe, expect, it } from 'vitest';
import { CommitQueue } from '../src/commit-queue.js';

let store: Store | null = null;
const open = () => {
  store = openStore(join(mkdtempSync(join(tmpdir(), 'hermes-commit-')), 'state.db'));
  return store;
};
afterEach(() => {
  store?.close();
  store = null;
});

describe('CommitQueue', () => {
  it('groups the writes of one turn into one transaction and resolves each with its own result', async () => {
    const s = open();
    let transactions = 0;
    const counting = <T>(fn: () => T): T => {
      transactions++;
      return s.transaction(fn);
    };
    const queue = new CommitQueue(counting);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => queue.run(() => s.inbox.accept('test', `m${i}`, { i }))),
    );
    expect(results.every((r) => r.accepted)).toBe(true);
    // one transaction, no savepoint: nothing failed
    expect(transactions).toBe(1);
    expect(s.inbox.countByStatus().accepted).toBe(20);
  });

  it('rolls back only the job that throws; the others commit', async () => {
    const s = open();
    let transactions = 0;
    const queue = new CommitQueue(<T>(fn: () => T): T => {
      transactions++;
      return s.transaction(fn);
    });
    const ok = queue.run(() => s.inbox.accept('test', 'a', {}));
    const bad = queue.run(() => {
      s.inbox.accept('test', 'b', {});
      throw new Error('boom');
    });
    const ok2 = queue.run(() => s.inbox.accept('test', 'c', {}));
    await expect(bad).rejects.toThrow('boom');
    expect((await ok).accepted).toBe(true);
    expect((await ok2).accepted).toBe(true);
    expect(s.inbox.pending().map((r) => r.payload)).toHaveLength(2);
    // the first run (no savepoints) rolled back whole, then the batch again with one savepoint per job
    expect(transactions).toBe(1 + 1 + 3);
  });

  it('a failed commit rejects every job without running the batch again', async () => {
    let runs = 0;
    const queue = new CommitQueue(<T>(fn: () => T): T => {
      fn();
      throw new Error('disk I/O error');
    });
    const job = () => {
      runs++;
      return runs;
    };
    await expect(Promise.all([queue.run(job), queue.run(job)])).rejects.toThrow('disk I/O error');
    expect(runs).toBe(2);
  });

  it('does not resolve before the commit: a failing commit rejects every job of the batch', async () => {
    const queue = new CommitQueue(() => {
      throw new Error('disk I/O error');
    });
    await expect(Promise.all([queue.run(() => 1), queue.run(() => 2)])).rejects.toThrow('disk I/O error');
  });

  it("a usage counter's add, a new session and its memory snapshot join the group commit of their turn", async () => {
    const s = open();
    let outer = 0;
    const counting = <T>(fn: () => T): T => {
      if (!s.db.inTransaction) outer++;
      return s.transaction(fn);
    };
    const store = asyncSqliteStore({ ...s, transaction: counting });
    const window = { start: 1_000, staleBefore: 0 };
    const pending = Promise.all([
      store.commit([{ kind: 'inbox.accept', platform: 'test', key: 'm1', payload: {} }]),
      store.usageCounters.add('test:u1', 'minute', window, { turns: 1 }),
      store.usageCounters.add('test:u1', 'minute', window, { turns: 1 }),
      store.sessions.create({ key: 'k', platform: 'test', id: 'sess_g' }),
    ]);
    // nothing is written before the turn's group commit (each of these used to commit on its own)
    expect(s.usageCounters.get('test:u1', 'minute', 0)).toBeUndefined();
    expect(s.sessions.get('sess_g')).toBeUndefined();
    const [accepted, counter] = await pending;
    expect(await store.memorySnapshots.put('sess_g', 'builtin', 'block')).toBe(true);
    expect(s.memorySnapshots.get('sess_g')).toBe('block');
    expect(accepted[0]).toMatchObject({ accepted: true });
    expect(counter).toMatchObject({ userKey: 'test:u1', turns: 1 });
    expect(outer).toBe(2); // the first turn's writes, then the snapshot's
    expect(s.usageCounters.get('test:u1', 'minute', 0)).toMatchObject({ turns: 2 });
  });
});
