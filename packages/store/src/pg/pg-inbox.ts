import type { AsyncMethods } from '../async-store.js';
import type { InboxRepo, InboxStatus } from '../inbox-repo.js';
import { COLUMNS, type InboxRecord, toJson, toRow, UNFINISHED } from '../inbox-repo.js';
import { inPgTransaction, type PgQueryable, pgChanges, pgRow, pgRows } from './pg-db.js';
import { claimPgInbox } from './pg-inbox-claims.js';
import { UPSERT_PLATFORM_STATE } from './pg-platform-state.js';

/**
 * The inbox on PostgreSQL: the dedupe key is the UNIQUE (platform, message_key), so two instances
 * accepting the same webhook delivery at once get one `accepted` and one `duplicate`.
 */
export function createPgInboxRepo(pool: PgQueryable, now: () => number): AsyncMethods<InboxRepo> {
  return {
    async accept(platform, messageKey, payload, options = {}) {
      const json = toJson(payload);
      return inPgTransaction(pool, async (client) => {
        const at = now();
        const inserted = await pgRow<{ id: number }>(
          client,
          `INSERT INTO inbox (platform, message_key, session_key, payload, status, accepted_at, updated_at, attempts, owner)
           VALUES ($1, $2, $3, $4, 'accepted', $5, $5, 0, $6)
           ON CONFLICT (platform, message_key) DO NOTHING RETURNING id`,
          [platform, messageKey, options.sessionKey ?? null, json, at, options.owner ?? null],
        );
        for (const [key, value] of Object.entries(options.state ?? {})) {
          await client.query(UPSERT_PLATFORM_STATE, [platform, key, value, at]);
        }
        return inserted === undefined
          ? { accepted: false as const, reason: 'duplicate' as const }
          : { accepted: true as const, id: inserted.id };
      });
    },
    async mark(id, status) {
      const sql = `UPDATE inbox SET status = $1::text, updated_at = $2,
                   attempts = attempts + CASE WHEN $1::text = 'processing' THEN 1 ELSE 0 END WHERE id = $3`;
      return (await pgChanges(pool, sql, [status, now(), id])) > 0;
    },
    async pending() {
      const rows = await pgRows<InboxRecord>(
        pool,
        `SELECT ${COLUMNS} FROM inbox WHERE ${UNFINISHED} ORDER BY accepted_at, id`,
      );
      return rows.map(toRow);
    },
    claimUnfinished: (claim) => claimPgInbox(pool, claim),
    async get(id) {
      const r = await pgRow<InboxRecord>(pool, `SELECT ${COLUMNS} FROM inbox WHERE id = $1`, [id]);
      return r && toRow(r);
    },
    async countByStatus() {
      const result: Record<InboxStatus, number> = {
        accepted: 0,
        processing: 0,
        done: 0,
        skipped: 0,
        refused: 0,
        failed: 0,
        interrupted: 0,
      };
      const rows = await pgRows<{ status: InboxStatus; n: number }>(
        pool,
        'SELECT status, COUNT(*) AS n FROM inbox GROUP BY status',
      );
      for (const { status, n } of rows) result[status] = n;
      return result;
    },
    prune: (before) =>
      pgChanges(pool, `DELETE FROM inbox WHERE accepted_at < $1 AND status NOT IN ('accepted', 'processing')`, [
        before,
      ]),
  };
}
