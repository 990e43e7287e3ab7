/**
 * Group commit: the store writes issued within one event-loop turn share one transaction. Under
 * load, many messages' accepts and delivery marks cost one WAL write instead of one each; alone, a
 * write commits on the next turn. A write's promise resolves only after its transaction committed.
 *
 * One failing write rolls back alone. The batch first runs with no savepoint at all (a savepoint
 * makes SQLite copy every page the write then changes into its statement journal: 20 % of the
 * store's time per message at 64 chats); when a write throws, the whole transaction rolls back and
 * the batch runs again with a savepoint per write, so the failing one rolls back alone and the
 * others commit. A write may therefore run twice: it must only write to the store.
 */
export type Transaction = <T>(fn: () => T) => T;

interface Job {
  fn: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** What a batch's first run ended with. */
type FirstRun = { committed: true; values: unknown[] } | { committed: false; jobThrew: boolean; error: unknown };

export class CommitQueue {
  readonly #transaction: Transaction;
  readonly #unit: Transaction;
  #jobs: Job[] = [];
  #scheduled = false;

  /**
   * `unit` runs a job where a throw rolls it back whole (its savepoint, or the whole transaction):
   * the store's `unit`, inside which its writes open no savepoint of their own.
   */
  constructor(transaction: Transaction, unit: Transaction = (fn) => fn()) {
    this.#transaction = transaction;
    this.#unit = unit;
  }

  /** Runs `fn` (synchronous store writes) in the next group transaction; resolves with its result once committed. */
  run<T>(fn: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#jobs.push({ fn, resolve: resolve as (value: unknown) => void, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => this.#flush());
      }
    });
  }

  #flush(): void {
    const jobs = this.#jobs;
    this.#jobs = [];
    this.#scheduled = false;
    const first = this.#runBare(jobs);
    if (first.committed) {
      for (const [i, job] of jobs.entries()) job.resolve(first.values[i]);
      return;
    }
    // the commit itself failed, or the only write threw: nothing of the batch is stored
    if (!first.jobThrew || jobs.length === 1) {
      for (const job of jobs) job.reject(first.error);
      return;
    }
    this.#runWithSavepoints(jobs);
  }

  /** Every job in one transaction, no savepoint: a throw rolls the whole batch back. */
  #runBare(jobs: Job[]): FirstRun {
    let jobThrew = false;
    try {
      const values = this.#transaction(() =>
        jobs.map((job) => {
          try {
            return this.#unit(job.fn);
          } catch (error) {
            jobThrew = true;
            throw error;
          }
        }),
      );
      return { committed: true, values };
    } catch (error) {
      return { committed: false, jobThrew, error };
    }
  }

  /** The batch again, each job in a savepoint of its own, rolled back alone when it throws. */
  #runWithSavepoints(jobs: Job[]): void {
    const outcomes: Outcome[] = [];
    try {
      this.#transaction(() => {
        for (const job of jobs) {
          try {
            outcomes.push({ ok: true, value: this.#transaction(() => this.#unit(job.fn)) });
          } catch (error) {
            outcomes.push({ ok: false, error });
          }
        }
      });
    } catch (error) {
      // the commit itself failed: nothing of the batch is stored
      for (const job of jobs) job.reject(error);
      return;
    }
    for (const [i, job] of jobs.entries()) {
      const outcome = outcomes[i];
      if (outcome?.ok) job.resolve(outcome.value);
      else job.reject(outcome?.error);
    }
  }
}
