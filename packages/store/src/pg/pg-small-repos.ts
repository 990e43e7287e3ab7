/** The small per-session repositories on PostgreSQL: memory snapshots, session models, API responses, context summaries. */
import type { ApiResponsesRepo } from '../api-responses-repo.js';
import type { AsyncMethods } from '../async-store.js';
import type { ContextSummariesRepo } from '../context-summaries-repo.js';
import type { MemorySnapshotsRepo } from '../memory-snapshots-repo.js';
import type { SessionModelsRepo } from '../session-models-repo.js';
import { type PgQueryable, pgChanges, pgRow } from './pg-db.js';

export function createPgMemorySnapshotsRepo(db: PgQueryable, now: () => number): AsyncMethods<MemorySnapshotsRepo> {
  return {
    async get(sessionId, userKey) {
      const row = await pgRow<{ block: string }>(
        db,
        'SELECT block FROM memory_snapshots WHERE session_id = $1 AND user_key IS NOT DISTINCT FROM $2',
        [sessionId, userKey ?? null],
      );
      return row?.block;
    },
    async put(sessionId, provider, block, userKey) {
      const sql = `INSERT INTO memory_snapshots (session_id, provider, block, created_at, user_key)
                   SELECT $1::text, $2::text, $3::text, $4::bigint, $5::text WHERE EXISTS (SELECT 1 FROM sessions WHERE id = $1::text)
                   ON CONFLICT (session_id) DO NOTHING`;
      return (await pgChanges(db, sql, [sessionId, provider, block, now(), userKey ?? null])) > 0;
    },
  };
}

export function createPgSessionModelsRepo(db: PgQueryable, now: () => number): AsyncMethods<SessionModelsRepo> {
  return {
    async get(sessionId) {
      const r = await pgRow<{ session_id: string; provider: string; model: string; updated_at: number }>(
        db,
        'SELECT session_id, provider, model, updated_at FROM session_models WHERE session_id = $1',
        [sessionId],
      );
      return r && { sessionId: r.session_id, provider: r.provider, model: r.model, updatedAt: r.updated_at };
    },
    async set(sessionId, provider, model) {
      await db.query(
        `INSERT INTO session_models (session_id, provider, model, updated_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (session_id) DO UPDATE SET provider = excluded.provider, model = excluded.model, updated_at = excluded.updated_at`,
        [sessionId, provider, model, now()],
      );
    },
    async clear(sessionId) {
      return (await pgChanges(db, 'DELETE FROM session_models WHERE session_id = $1', [sessionId])) > 0;
    },
  };
}

export function createPgApiResponsesRepo(db: PgQueryable, now: () => number): AsyncMethods<ApiResponsesRepo> {
  return {
    async record(id, sessionId, messageCount) {
      await db.query(
        `INSERT INTO api_responses (id, session_id, message_count, created_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (id) DO UPDATE SET session_id = excluded.session_id, message_count = excluded.message_count`,
        [id, sessionId, messageCount, now()],
      );
    },
    async get(id) {
      const r = await pgRow<{ id: string; session_id: string; message_count: number; created_at: number }>(
        db,
        'SELECT id, session_id, message_count, created_at FROM api_responses WHERE id = $1',
        [id],
      );
      return r && { id: r.id, sessionId: r.session_id, messageCount: r.message_count, createdAt: r.created_at };
    },
  };
}

export function createPgContextSummariesRepo(
  db: PgQueryable,
  now: () => number,
  redact?: (text: string) => string,
): AsyncMethods<ContextSummariesRepo> {
  return {
    async latest(sessionId) {
      const row = await pgRow<{ head_count: number; keep_from: number; summary: string }>(
        db,
        'SELECT head_count, keep_from, summary FROM context_summaries WHERE session_id = $1 ORDER BY id DESC LIMIT 1',
        [sessionId],
      );
      return row ? { headCount: row.head_count, keepFrom: row.keep_from, summary: row.summary } : null;
    },
    async save(sessionId, s) {
      await db.query(
        'INSERT INTO context_summaries (session_id, head_count, keep_from, summary, created_at) VALUES ($1, $2, $3, $4, $5)',
        [sessionId, s.headCount, s.keepFrom, redact ? redact(s.summary) : s.summary, now()],
      );
    },
    async count(sessionId) {
      const row = await pgRow<{ n: number }>(db, 'SELECT COUNT(*) AS n FROM context_summaries WHERE session_id = $1', [
        sessionId,
      ]);
      return row?.n ?? 0;
    },
  };
}
