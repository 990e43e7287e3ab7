/**
 * Where a repository write opens its own transaction. A write of several statements (an accept
 * with its platform state, a transcript append, an outbox enqueue) runs in an IMMEDIATE
 * transaction of its own, or a savepoint when the caller is inside one, so it lands whole or not at
 * all. The group commit already runs each unit of work where a throw rolls it back whole (the
 * batch's transaction, or the unit's savepoint when the batch runs again): there, the write's own
 * savepoint is a SAVEPOINT and a RELEASE more per write for nothing (three pairs a message), and
 * makes SQLite copy each page the write changes into its statement journal. `WriteScope.unit` marks
 * that span, and the writes built with `ownTransaction` run bare inside it.
 */
import type { SqliteDatabase } from './sqlite.js';

export class WriteScope {
  #inUnit = false;
  readonly #db: SqliteDatabase;

  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  /** True inside `unit`: an enclosing transaction or savepoint rolls the writes back whole. */
  get inUnit(): boolean {
    return this.#inUnit;
  }

  /**
   * Runs `fn` with the store's writes opening no savepoint of their own. Only inside a transaction
   * or savepoint that is rolled back whole when `fn` throws (the group commit's unit of work).
   */
  unit<T>(fn: () => T): T {
    if (!this.#db.inTransaction) throw new Error('WriteScope.unit outside a transaction');
    const was = this.#inUnit;
    this.#inUnit = true;
    try {
      return fn();
    } finally {
      this.#inUnit = was;
    }
  }
}

/**
 * `fn` as a write of its own: in an IMMEDIATE transaction (a savepoint inside another), or run as
 * is inside `scope.unit`, whose enclosing transaction or savepoint rolls back whatever `fn` wrote
 * when it throws.
 */
export function ownTransaction<A extends unknown[], R>(
  db: SqliteDatabase,
  scope: WriteScope | undefined,
  fn: (...args: A) => R,
): (...args: A) => R {
  const tx = db.transaction(fn);
  if (scope === undefined) return (...args) => tx.immediate(...args);
  return (...args) => (scope.inUnit ? fn(...args) : tx.immediate(...args));
}
