import type { SqliteDatabase } from './sqlite.js';

/** The memory block of each stored session's system prompt (migration 0007). */
export interface MemorySnapshotsRepo {
  /**
   * The session's stored block for `userKey` (the owner identity it was taken for; absent: a block
   * taken for nobody in particular), or undefined when none was taken for them.
   */
  get(sessionId: string, userKey?: string): string | undefined;
  /**
   * Stores the session's block unless it has one already (the first one wins); a session that is
   * not in `sessions` (a stateless API request) stores nothing. Returns true when a row was written.
   */
  put(sessionId: string, provider: string, block: string, userKey?: string): boolean;
}

/** Builds the repository; statements prepared once. */
export function createMemorySnapshotsRepo(db: SqliteDatabase, now: () => number): MemorySnapshotsRepo {
  const get = db
    .prepare<[string, string | null], string>(
      'SELECT block FROM memory_snapshots WHERE session_id = ? AND user_key IS ?',
    )
    .pluck();
  const put = db.prepare<[string, string, string, number, string | null, string]>(
    `INSERT OR IGNORE INTO memory_snapshots (session_id, provider, block, created_at, user_key)
     SELECT ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM sessions WHERE id = ?)`,
  );
  return {
    get: (sessionId, userKey) => get.get(sessionId, userKey ?? null),
    put: (sessionId, provider, block, userKey) =>
      put.run(sessionId, provider, block, now(), userKey ?? null, sessionId).changes > 0,
  };
}
