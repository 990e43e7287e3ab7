/**
 * Group commit: the store writes issued within one event-loop turn share one transaction (each in
 * its own savepoint, so one failing write rolls back alone). Under load, many messages' accepts
 * and delivery marks cost one WAL write instead of one each; alone, a write commits on the next
 * turn. A write's promise resolves only after its transaction committed.
 */
export type Transaction = <T>(fn: () => T) => T;

interface Job {
  fn: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export class CommitQueue {
  readonly #transaction: Transaction;
  #jobs: Job[] = [];
  #scheduled = false;

  constructor(transaction: Transaction) {
    this.#transaction = transaction;
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
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    try {
      this.#transaction(() => {
        for (const job of jobs) {
          try {
            // nested: a savepoint, rolled back alone when this job throws
            outcomes.push({ ok: true, value: this.#transaction(job.fn) });
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
