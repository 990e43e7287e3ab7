import type { AsyncMethods } from '../async-store.js';
import type { EnqueuedRow, OutboxRepo, OutboxStatus } from '../outbox-repo.js';
import { COLUMNS, type OutboxRecord, toRow } from '../outbox-repo.js';
import { inPgTransaction, type PgQueryable, pgChanges, pgRow, pgRows } from './pg-db.js';

/** The outbox on PostgreSQL: the partial unique (inbox_id, chunk_index) makes a redone reply reuse its rows. */
export function createPgOutboxRepo(pool: PgQueryable, now: () => number): AsyncMethods<OutboxRepo> {
  return {
    enqueue: (rows) =>
      inPgTransaction(pool, async (client) => {
        const at = now();
        const result: EnqueuedRow[] = [];
        for (const row of rows) {
          const inboxId = row.inboxId ?? null;
          const inserted = await pgRow<{ id: number }>(
            client,
            `INSERT INTO outbox (inbox_id, platform, chat_id, thread_id, chunk_index, text, formatted, kind, status, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'pending', $9)
             ON CONFLICT (inbox_id, chunk_index) WHERE inbox_id IS NOT NULL DO NOTHING RETURNING id`,
            [
              inboxId,
              row.platform,
              row.chatId,
              row.threadId ?? null,
              row.chunkIndex,
              row.text,
              row.formatted ? 1 : 0,
              row.kind ?? 'text',
              at,
            ],
          );
          if (inserted) {
            result.push({ id: inserted.id, sent: false, createdAt: at, existed: false });
            continue;
          }
          const found = await pgRow<{ id: number; status: OutboxStatus; created_at: number }>(
            client,
            'SELECT id, status, created_at FROM outbox WHERE inbox_id = $1 AND chunk_index = $2',
            [inboxId, row.chunkIndex],
          );
          if (!found) throw new Error(`outbox insert returned no id for chunk ${row.chunkIndex}`);
          result.push({ id: found.id, sent: found.status === 'sent', createdAt: found.created_at, existed: true });
        }
        return result;
      }),
    async markSent(id, platformMessageId) {
      const sql = `UPDATE outbox SET status = 'sent', platform_message_id = $1, sent_at = $2, attempts = attempts + 1
                   WHERE id = $3 AND status <> 'sent'`;
      return (await pgChanges(pool, sql, [platformMessageId, now(), id])) > 0;
    },
    async markFailed(id, error) {
      const sql = `UPDATE outbox SET status = 'failed', last_error = $1, attempts = attempts + 1
                   WHERE id = $2 AND status <> 'sent'`;
      return (await pgChanges(pool, sql, [error, id])) > 0;
    },
    async recordAttempt(id, error) {
      const sql = `UPDATE outbox SET last_error = $1, attempts = attempts + 1 WHERE id = $2 AND status <> 'sent'`;
      return (await pgChanges(pool, sql, [error, id])) > 0;
    },
    async pending(options = {}) {
      const rows =
        options.platform === undefined
          ? await pgRows<OutboxRecord>(pool, `SELECT ${COLUMNS} FROM outbox WHERE status = 'pending' ORDER BY id`)
          : await pgRows<OutboxRecord>(
              pool,
              `SELECT ${COLUMNS} FROM outbox WHERE status = 'pending' AND platform = $1 ORDER BY id`,
              [options.platform],
            );
      return rows.map(toRow);
    },
    pendingCounts: () =>
      pgRows<{ platform: string; count: number }>(
        pool,
        `SELECT platform, COUNT(*) AS count FROM outbox WHERE status = 'pending' GROUP BY platform`,
      ),
    async forInbox(inboxId) {
      const rows = await pgRows<OutboxRecord>(
        pool,
        `SELECT ${COLUMNS} FROM outbox WHERE inbox_id = $1 ORDER BY chunk_index`,
        [inboxId],
      );
      return rows.map(toRow);
    },
    async get(id) {
      const r = await pgRow<OutboxRecord>(pool, `SELECT ${COLUMNS} FROM outbox WHERE id = $1`, [id]);
      return r && toRow(r);
    },
    prune: (before) => pgChanges(pool, `DELETE FROM outbox WHERE created_at < $1 AND status <> 'pending'`, [before]),
  };
}
