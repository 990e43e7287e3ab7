import type { SqliteDatabase } from './sqlite.js';

/** The memory block of each stored session's system prompt (migration 0007). */
export interface MemorySnapshotsRepo {
  /** The session's stored block, or undefined when none was taken yet. */
  get(sessionId: string): string | undefined;
  /**
   * Stores the session's block unless it has one already (the first one wins); a session that is
   * not in `sessions` (a stateless API request) stores nothing. Returns true when a row was written.
   */
  put(sessionId: string, provider: string, block: string): boolean;
}

/** Builds the repository; statements prepared once. */
export function createMemorySnapshotsRepo(db: SqliteDatabase, now: () => number): MemorySnapshotsRepo {
  const get = db.prepare<[string], string>('SELECT block FROM memory_snapshots WHERE session_id = ?').pluck();
  const put = db.prepare<[string, string, string, number, string]>(
    `INSERT OR IGNORE INTO memory_snapshots (session_id, provider, block, created_at)
     SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM sessions WHERE id = ?)`,
  );
  return {
    get: (sessionId) => get.get(sessionId),
    put: (sessionId, provider, block) => put.run(sessionId, provider, block, now(), sessionId).changes > 0,
  };
}
