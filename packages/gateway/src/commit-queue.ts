/**
 * Group commit: the store writes issued within one event-loop turn share one transaction (each in
 * its own savepoint, so one failing write rolls back alone). Under load, many messages' accepts
 * and delivery marks cost one WAL write instead of one each. At low load (the last batch held one
 * write) a write commits at once instead of waiting for the next turn (`setImmediate`): one hop
 * less on the path of every message at 1 chat; a second write in the same turn queues again, and
 * a batch of more than one returns the queue to batching. Either way a write's promise resolves
 * only after its transaction committed, and a write is never committed inside a transaction
 * someone else has open (it would only be a savepoint of it).
 */
export type Transaction = <T>(fn: () => T) => T;

export interface CommitQueueOptions {
  /** true while a transaction is open on the connection: a write then waits for the next turn */
  inTransaction?: () => boolean;
}

interface Job {
  fn: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export class CommitQueue {
  readonly #transaction: Transaction;
  readonly #inTransaction: (() => boolean) | null;
  #jobs: Job[] = [];
  #scheduled = false;
  /** the last batch held a single write: the next one may commit at once */
  #alone = false;
  /** a write committed at once in this event-loop turn (cleared on the next) */
  #committedThisTurn = false;

  constructor(transaction: Transaction, options: CommitQueueOptions = {}) {
    this.#transaction = transaction;
    this.#inTransaction = options.inTransaction ?? null;
  }

  /** Runs `fn` (synchronous store writes) in a group transaction; resolves with its result once committed. */
  run<T>(fn: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#jobs.push({ fn, resolve: resolve as (value: unknown) => void, reject });
      if (this.#scheduled) return;
      if (this.#alone && !this.#committedThisTurn && this.#inTransaction?.() === false) {
        this.#committedThisTurn = true;
        setImmediate(() => {
          this.#committedThisTurn = false;
        });
        this.#flush();
        return;
      }
      this.#scheduled = true;
      setImmediate(() => this.#flush());
    });
  }

  #flush(): void {
    const jobs = this.#jobs;
    this.#jobs = [];
    this.#scheduled = false;
    this.#alone = jobs.length === 1;
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
