/** The context engine's stored summaries: the newest per session is what the next turn starts from. */
import type { SqliteDatabase } from './sqlite.js';

export interface ContextSummary {
  /** the session's first messages kept before the summary */
  headCount: number;
  /** the 0-based position in the transcript of the first message kept after the summary */
  keepFrom: number;
  summary: string;
}

export interface ContextSummariesRepo {
  /** the session's newest summary, or null */
  latest(sessionId: string): ContextSummary | null;
  /** stores a summary (earlier ones stay, as history) */
  save(sessionId: string, summary: ContextSummary): void;
  /** how many summaries the session has had */
  count(sessionId: string): number;
}

interface Row {
  head_count: number;
  keep_from: number;
  summary: string;
}

/** Builds the repository; statements are prepared once. `redact` is applied to the summary text. */
export function createContextSummariesRepo(
  db: SqliteDatabase,
  now: () => number,
  redact?: (text: string) => string,
): ContextSummariesRepo {
  const latest = db.prepare<[string], Row>(
    'SELECT head_count, keep_from, summary FROM context_summaries WHERE session_id = ? ORDER BY id DESC LIMIT 1',
  );
  const insert = db.prepare<[string, number, number, string, number]>(
    'INSERT INTO context_summaries (session_id, head_count, keep_from, summary, created_at) VALUES (?, ?, ?, ?, ?)',
  );
  const count = db.prepare<[string], number>('SELECT COUNT(*) FROM context_summaries WHERE session_id = ?').pluck();
  return {
    latest(sessionId) {
      const row = latest.get(sessionId);
      return row ? { headCount: row.head_count, keepFrom: row.keep_from, summary: row.summary } : null;
    },
    save(sessionId, s) {
      insert.run(sessionId, s.headCount, s.keepFrom, redact ? redact(s.summary) : s.summary, now());
    },
    count(sessionId) {
      return count.get(sessionId) ?? 0;
    },
  };
}
