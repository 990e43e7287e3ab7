import type { SqliteDatabase } from './sqlite.js';

/** A stored response of the API platform's Responses API. */
export interface ApiResponseRow {
  id: string;
  sessionId: string;
  /** the session's transcript length once this response was stored */
  messageCount: number;
  createdAt: number;
}

export interface ApiResponsesRepo {
  /** Stores (or replaces) the response `id` of `sessionId`, answered at `messageCount` messages. */
  record(id: string, sessionId: string, messageCount: number): void;
  /** The stored response, if any (gone with its session when retention prunes it). */
  get(id: string): ApiResponseRow | undefined;
}

interface ApiResponseRecord {
  id: string;
  session_id: string;
  message_count: number;
  created_at: number;
}

/** Builds the api_responses repository; every statement is prepared here, once. */
export function createApiResponsesRepo(db: SqliteDatabase, now: () => number): ApiResponsesRepo {
  const insert = db.prepare<[string, string, number, number]>(
    `INSERT INTO api_responses (id, session_id, message_count, created_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET session_id = excluded.session_id, message_count = excluded.message_count`,
  );
  const get = db.prepare<[string], ApiResponseRecord>(
    'SELECT id, session_id, message_count, created_at FROM api_responses WHERE id = ?',
  );
  return {
    record(id, sessionId, messageCount) {
      insert.run(id, sessionId, messageCount, now());
    },
    get(id) {
      const r = get.get(id);
      return r && { id: r.id, sessionId: r.session_id, messageCount: r.message_count, createdAt: r.created_at };
    },
  };
}
