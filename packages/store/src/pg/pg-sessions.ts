import { ERROR_CODES, HermesError } from '@hermes/protocol';
import type { AsyncMethods } from '../async-store.js';
import { newSessionId } from '../session-id.js';
import type { SessionsRepo } from '../sessions-repo.js';
import { COLUMNS, type SessionRecord, toRow } from '../sessions-repo.js';
import { type PgQueryable, pgChanges, pgErrorCode, pgRow, pgRows } from './pg-db.js';

/** `sessions` on PostgreSQL; `ord` (insertion order) breaks ties the way SQLite's rowid does. */
export function createPgSessionsRepo(db: PgQueryable, now: () => number): AsyncMethods<SessionsRepo> {
  return {
    claimUnowned: (userKey) => pgChanges(db, 'UPDATE sessions SET user_key = $1 WHERE user_key IS NULL', [userKey]),
    async byKey(key, limit) {
      const sql = `SELECT ${COLUMNS} FROM sessions WHERE session_key = $1 ORDER BY updated_at DESC, ord DESC LIMIT $2`;
      return (await pgRows<SessionRecord>(db, sql, [key, limit])).map(toRow);
    },
    setTitle: async (id, title) =>
      (await pgChanges(db, 'UPDATE sessions SET title = $1 WHERE id = $2', [title, id])) > 0,
    async reopen(id) {
      const sql =
        'UPDATE sessions SET ended_at = NULL, end_reason = NULL, updated_at = $1 WHERE id = $2 AND ended_at IS NOT NULL';
      return (await pgChanges(db, sql, [now(), id])) > 0;
    },
    remove: async (id) => (await pgChanges(db, 'DELETE FROM sessions WHERE id = $1', [id])) > 0,
    async create(session) {
      const at = now();
      const id = session.id ?? newSessionId();
      try {
        const record = await pgRow<SessionRecord>(
          db,
          `INSERT INTO sessions (id, session_key, platform, model, title, created_at, updated_at, user_key)
           VALUES ($1, $2, $3, $4, $5, $6, $6, $7) RETURNING ${COLUMNS}`,
          [
            id,
            session.key,
            session.platform,
            session.model ?? null,
            session.title ?? null,
            at,
            session.userKey ?? null,
          ],
        );
        if (!record) throw new Error('INSERT … RETURNING gave no row');
        return toRow(record);
      } catch (error) {
        if (pgErrorCode(error) === '23505') {
          throw new HermesError(ERROR_CODES.STATE_DB, `session id ${id} already exists`, { cause: error });
        }
        throw error;
      }
    },
    async get(id) {
      const r = await pgRow<SessionRecord>(db, `SELECT ${COLUMNS} FROM sessions WHERE id = $1`, [id]);
      return r && toRow(r);
    },
    async activeByKey(key) {
      const r = await pgRow<SessionRecord>(
        db,
        `SELECT ${COLUMNS} FROM sessions WHERE session_key = $1 AND ended_at IS NULL
         ORDER BY created_at DESC, ord DESC LIMIT 1`,
        [key],
      );
      return r && toRow(r);
    },
    async latestByKey(key) {
      const r = await pgRow<SessionRecord>(
        db,
        `SELECT ${COLUMNS} FROM sessions WHERE session_key = $1 ORDER BY created_at DESC, ord DESC LIMIT 1`,
        [key],
      );
      return r && toRow(r);
    },
    async idleActive({ before, platforms, limit }) {
      const records = await pgRows<SessionRecord>(
        db,
        `SELECT ${COLUMNS} FROM sessions
         WHERE ended_at IS NULL AND updated_at < $1 AND platform = ANY($2::text[])
         ORDER BY updated_at, ord LIMIT $3`,
        [before, [...platforms], limit],
      );
      return records.map(toRow);
    },
    async end(id, reason) {
      const at = now();
      const sql =
        'UPDATE sessions SET ended_at = $1, end_reason = $2, updated_at = $1 WHERE id = $3 AND ended_at IS NULL';
      return (await pgChanges(db, sql, [at, reason, id])) > 0;
    },
    async touch(id) {
      return (await pgChanges(db, 'UPDATE sessions SET updated_at = $1 WHERE id = $2', [now(), id])) > 0;
    },
    async list({ limit, platform }) {
      const records =
        platform === undefined
          ? await pgRows<SessionRecord>(
              db,
              `SELECT ${COLUMNS} FROM sessions ORDER BY updated_at DESC, ord DESC LIMIT $1`,
              [limit],
            )
          : await pgRows<SessionRecord>(
              db,
              `SELECT ${COLUMNS} FROM sessions WHERE platform = $1 ORDER BY updated_at DESC, ord DESC LIMIT $2`,
              [platform, limit],
            );
      return records.map(toRow);
    },
  };
}
