/**
 * `session_search`'s FTS5 index kept current in batches (migration 18): a stored user or assistant
 * message is queued in `messages_fts_pending` by its insert trigger, and the queue is indexed in
 * one statement before every search and once it holds `SEARCH_INDEX_BATCH` messages. FTS5 writes
 * a segment (and merges) at every commit that changed it, so a row indexed inside each small commit
 * cost several times its insert; a batch costs a few microseconds a row. A search always sees every
 * committed message.
 */
import type { SqliteDatabase } from './sqlite.js';

/** Messages queued (by this process's writes) before they are indexed without a search asking. */
export const SEARCH_INDEX_BATCH = 64;

export interface SearchIndex {
  /**
   * `count` messages the index takes were just written (inside the writer's transaction): once
   * `SEARCH_INDEX_BATCH` are queued, they are indexed in the same transaction. A failure leaves
   * them queued (the next batch or search tries again) and never fails the write.
   */
  queued(count: number): void;
  /** Indexes every queued message now; how many it indexed. */
  catchUp(): number;
}

export function createSearchIndex(db: SqliteDatabase): SearchIndex {
  const waiting = db.prepare<[], number>('SELECT COUNT(*) FROM messages_fts_pending').pluck();
  const any = db.prepare<[], number>('SELECT 1 FROM messages_fts_pending LIMIT 1').pluck();
  const index = db.prepare(
    `INSERT INTO messages_fts (rowid, content)
     SELECT m.id, m.content FROM messages_fts_pending p JOIN messages m ON m.id = p.id`,
  );
  const clear = db.prepare('DELETE FROM messages_fts_pending');
  const indexQueued = db.transaction((): number => {
    const n = index.run().changes;
    clear.run();
    return n;
  });
  // what an earlier process left queued counts toward the first batch
  let sinceIndexed = waiting.get() ?? 0;
  const catchUp = (): number => {
    sinceIndexed = 0;
    return any.get() === undefined ? 0 : indexQueued.immediate();
  };
  return {
    queued(count) {
      sinceIndexed += count;
      if (sinceIndexed < SEARCH_INDEX_BATCH) return;
      try {
        catchUp(); // inside the writer's transaction: a savepoint, rolled back alone on failure
      } catch {
        // left queued: the next batch or search indexes it
      }
    },
    catchUp,
  };
}
