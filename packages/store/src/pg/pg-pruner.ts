/** Retention on PostgreSQL: the same cutoffs and order as the SQLite pruner (prune.ts), in one transaction. */
import type { AsyncMethods } from '../async-store.js';
import { PAIRING_CODE_TTL_MS, PAIRING_FAILURE_WINDOW_MS } from '../pairing/pairing-limits.js';
import { INBOX_KEEP_MS, type PruneCounts, type Pruner } from '../prune.js';
import { inPgTransaction, type PgQueryable, pgRow } from './pg-db.js';

const INBOX_DONE = `status NOT IN ('accepted', 'processing')`;
const OUTBOX_DONE = `status <> 'pending'`;
const PAIRING_GONE = 'expires_at <= $1 AND created_at <= $2';

export function createPgPruner(pool: PgQueryable, now: () => number): AsyncMethods<Pruner> {
  return {
    prune: (before, options = {}) =>
      inPgTransaction(pool, async (client) => {
        const at = now();
        const rowsBefore = Math.min(before, at - INBOX_KEEP_MS);
        const failuresBefore = at - PAIRING_FAILURE_WINDOW_MS;
        const count = async (sql: string, params: unknown[]) =>
          (await pgRow<{ n: number }>(client, `SELECT COUNT(*) AS n FROM ${sql}`, params))?.n ?? 0;
        const counts: PruneCounts = {
          sessions: await count('sessions WHERE updated_at < $1', [before]),
          messages: await count('messages WHERE session_id IN (SELECT id FROM sessions WHERE updated_at < $1)', [
            before,
          ]),
          inbox: await count(`inbox WHERE accepted_at < $1 AND ${INBOX_DONE}`, [rowsBefore]),
          outbox: await count(`outbox WHERE created_at < $1 AND ${OUTBOX_DONE}`, [rowsBefore]),
          pairingRequests: await count(`pairing_requests WHERE ${PAIRING_GONE}`, [at, at - PAIRING_CODE_TTL_MS]),
          pairingFailures: await count('pairing_failures WHERE at <= $1', [failuresBefore]),
        };
        if (options.dryRun === true) return counts;
        await client.query('DELETE FROM sessions WHERE updated_at < $1', [before]);
        // outbox rows first: deleting their inbox rows would only set their inbox_id to NULL
        await client.query(`DELETE FROM outbox WHERE created_at < $1 AND ${OUTBOX_DONE}`, [rowsBefore]);
        await client.query(`DELETE FROM inbox WHERE accepted_at < $1 AND ${INBOX_DONE}`, [rowsBefore]);
        await client.query(`DELETE FROM pairing_requests WHERE ${PAIRING_GONE}`, [at, at - PAIRING_CODE_TTL_MS]);
        await client.query('DELETE FROM pairing_failures WHERE at <= $1', [failuresBefore]);
        return counts;
      }),
  };
}
