/**
 * `AsyncStore.commit` on each backend: a unit of work in one transaction, its writes applied by the
 * one interpreter (apply-write.ts), units landing in the order they were issued. A later unit's
 * write must never land before an earlier one's (a platform's state list written whole by
 * successive accepts, an inbox row's `processing` then `done` mark).
 */
import { applyWrite, type WriteRepos } from './apply-write.js';
import { CommitQueue, type Transaction } from './commit-queue.js';
import type { CommitOptions, UnitOfWork, WriteResult } from './unit-of-work.js';

/** Commits a unit of work; `options.owner` marks the inbox rows it accepts. */
export type Commit = (work: UnitOfWork, options?: CommitOptions) => Promise<WriteResult[]>;

/**
 * SQLite: units issued within one event-loop turn share one better-sqlite3 transaction (the group
 * commit), applied in the order issued; one that throws rolls back alone (commit-queue.ts).
 */
export function sqliteCommit(
  repos: WriteRepos<'sync'> & { transaction: Transaction; unit: Transaction },
  queue: CommitQueue = new CommitQueue(repos.transaction, repos.unit),
): Commit {
  return (work, options = {}) => queue.run(() => work.map((write) => applyWrite<'sync'>(repos, write, options.owner)));
}

/**
 * PostgreSQL: a unit is one transaction on one pooled connection (`transaction` hands out the
 * repositories running on it); units commit one at a time, in the order they were issued.
 */
export function pgCommit(transaction: <T>(fn: (repos: WriteRepos<'async'>) => Promise<T>) => Promise<T>): Commit {
  let committed: Promise<unknown> = Promise.resolve();
  return (work, options = {}) => {
    const run = committed.then(() =>
      transaction(async (repos) => {
        const out: WriteResult[] = [];
        for (const write of work) out.push(await applyWrite<'async'>(repos, write, options.owner));
        return out;
      }),
    );
    committed = run.catch(() => undefined);
    return run;
  };
}
