import type { SqliteDatabase } from './sqlite.js';

/** The model one session was switched to (`/model`); times are milliseconds since the epoch. */
export interface SessionModelRow {
  sessionId: string;
  provider: string;
  model: string;
  updatedAt: number;
}

export interface SessionModelsRepo {
  /** The session's chosen model, if it was switched. */
  get(sessionId: string): SessionModelRow | undefined;
  /** Records (or replaces) the session's chosen model; the session must exist. */
  set(sessionId: string, provider: string, model: string): void;
  /** Back to the configured default; false when there was no choice. */
  clear(sessionId: string): boolean;
}

interface Record_ {
  session_id: string;
  provider: string;
  model: string;
  updated_at: number;
}

/** Builds the repository over `session_models`; every statement is prepared here, once. */
export function createSessionModelsRepo(db: SqliteDatabase, now: () => number): SessionModelsRepo {
  const select = db.prepare<[string], Record_>(
    'SELECT session_id, provider, model, updated_at FROM session_models WHERE session_id = ?',
  );
  const upsert = db.prepare<[string, string, string, number]>(
    `INSERT INTO session_models (session_id, provider, model, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (session_id) DO UPDATE SET provider = excluded.provider, model = excluded.model, updated_at = excluded.updated_at`,
  );
  const remove = db.prepare<[string]>('DELETE FROM session_models WHERE session_id = ?');
  return {
    get(sessionId) {
      const r = select.get(sessionId);
      return r ? { sessionId: r.session_id, provider: r.provider, model: r.model, updatedAt: r.updated_at } : undefined;
    },
    set(sessionId, provider, model) {
      upsert.run(sessionId, provider, model, now());
    },
    clear(sessionId) {
      return remove.run(sessionId).changes > 0;
    },
  };
}
