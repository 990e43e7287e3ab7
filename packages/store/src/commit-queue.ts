/**
 * Group commit: the store writes issued within one event-loop turn share one transaction (each in
 * its own savepoint, so one failing write rolls back alone). Under load, many messages' accepts
 * and delivery marks cost one WAL write instead of one each; alone, a write commits on the next
 * turn, in the transaction itself (no savepoint: rolling back the transaction rolls back the
 * write alone). A write's promise resolves only after its transaction committed.
 */
export type Transaction = <T>(fn: () => T) => T;

interface Job {
  fn: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

export class CommitQueue {
  readonly #transaction: Transaction;
  readonly #unit: Transaction;
  #jobs: Job[] = [];
  #scheduled = false;

  /**
   * `unit` runs a job inside its savepoint (or its lone transaction), which rolls it back whole when
   * it throws: the store's `unit`, inside which its writes open no savepoint of their own.
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
    const [only] = jobs;
    if (jobs.length === 1 && only !== undefined) {
      // alone: the transaction is the job's; a throw rolls it back, a failed commit rejects it too
      let value: unknown;
      try {
        value = this.#transaction(() => this.#unit(only.fn));
      } catch (error) {
        only.reject(error);
        return;
      }
      only.resolve(value);
      return;
    }
    const outcomes: Outcome[] = [];
    try {
      this.#transaction(() => {
        for (const job of jobs) {
          try {
            // nested: a savepoint, rolled back alone when this job throws
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
