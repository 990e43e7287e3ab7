import type pg from 'pg';
import type { AsyncMethods } from '../async-store.js';
import { newPairingCode, normalizePairingCode, type RandomInt, secureRandomInt } from '../pairing/pairing-code.js';
import {
  PAIRING_CODE_TTL_MS,
  PAIRING_FAILURE_WINDOW_MS,
  PAIRING_MAX_FAILURES,
  PAIRING_MAX_PENDING_PER_PLATFORM,
} from '../pairing/pairing-limits.js';
import {
  type ApprovedRecord,
  CODE_ATTEMPTS,
  type RequestRecord,
  toApproved,
  toPending,
} from '../pairing/pairing-repo.js';
import type { PairingRepo } from '../pairing/pairing-types.js';
import { inPgTransaction, type PgQueryable, pgChanges, pgRow, pgRows } from './pg-db.js';

const REQUEST_COLUMNS = 'platform, user_id, user_name, code, created_at, expires_at';

/** Serializes pairing writes of one platform across instances (the limits count rows). */
async function lockPlatform(client: pg.PoolClient, platform: string): Promise<void> {
  await client.query("SELECT pg_advisory_xact_lock(hashtext('hermes pairing ' || $1::text))", [platform]);
}

async function purge(client: pg.PoolClient, at: number): Promise<void> {
  await client.query('DELETE FROM pairing_requests WHERE expires_at <= $1 AND created_at <= $2', [
    at,
    at - PAIRING_CODE_TTL_MS,
  ]);
  await client.query('DELETE FROM pairing_failures WHERE at <= $1', [at - PAIRING_FAILURE_WINDOW_MS]);
}

const byCode = (client: pg.PoolClient, platform: string, code: string) =>
  pgRow<RequestRecord>(client, `SELECT ${REQUEST_COLUMNS} FROM pairing_requests WHERE platform = $1 AND code = $2`, [
    platform,
    code,
  ]);

/** Pairing on PostgreSQL: the same rules as the SQLite repository, each call one transaction. */
export function createPgPairingRepo(
  pool: PgQueryable,
  options: { now: () => number; randomInt?: RandomInt },
): AsyncMethods<PairingRepo> {
  const { now } = options;
  const random = options.randomInt ?? secureRandomInt;

  const freshCode = async (client: pg.PoolClient, platform: string): Promise<string> => {
    for (let i = 0; i < CODE_ATTEMPTS; i++) {
      const code = newPairingCode(random);
      if ((await byCode(client, platform, code)) === undefined) return code;
    }
    throw new Error(`could not draw an unused pairing code for ${platform} in ${CODE_ATTEMPTS} attempts`);
  };

  return {
    request: (platform, userId, userName) =>
      inPgTransaction(pool, async (client) => {
        await lockPlatform(client, platform);
        const at = now();
        await purge(client, at);
        const existing = await pgRow<RequestRecord>(
          client,
          `SELECT ${REQUEST_COLUMNS} FROM pairing_requests WHERE platform = $1 AND user_id = $2`,
          [platform, userId],
        );
        if (existing !== undefined && existing.expires_at <= at) {
          return { refused: 'recently_answered' as const, retryAt: existing.created_at + PAIRING_CODE_TTL_MS };
        }
        if (existing !== undefined) {
          if (userName !== undefined && userName !== existing.user_name) {
            await client.query('UPDATE pairing_requests SET user_name = $1 WHERE platform = $2 AND user_id = $3', [
              userName,
              platform,
              userId,
            ]);
          }
          return { code: existing.code, expiresAt: existing.expires_at, isNew: false };
        }
        const pending = await pgRow<{ n: number }>(
          client,
          'SELECT COUNT(*) AS n FROM pairing_requests WHERE platform = $1 AND expires_at > $2',
          [platform, at],
        );
        if ((pending?.n ?? 0) >= PAIRING_MAX_PENDING_PER_PLATFORM) {
          await client.query(
            `UPDATE pairing_requests SET expires_at = $1 WHERE ord = (
               SELECT ord FROM pairing_requests WHERE platform = $2 AND expires_at > $1 ORDER BY created_at, ord LIMIT 1)`,
            [at, platform],
          );
        }
        const code = await freshCode(client, platform);
        const expiresAt = at + PAIRING_CODE_TTL_MS;
        await client.query(`INSERT INTO pairing_requests (${REQUEST_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)`, [
          platform,
          userId,
          userName ?? null,
          code,
          at,
          expiresAt,
        ]);
        return { code, expiresAt, isNew: true };
      }),
    approve: (platform, typed) =>
      inPgTransaction(pool, async (client) => {
        await lockPlatform(client, platform);
        const at = now();
        await client.query('DELETE FROM pairing_failures WHERE at <= $1', [at - PAIRING_FAILURE_WINDOW_MS]);
        const limiting = await pgRow<{ at: number }>(
          client,
          `SELECT at FROM pairing_failures WHERE platform = $1 AND at > $2
           ORDER BY at DESC LIMIT 1 OFFSET ${PAIRING_MAX_FAILURES - 1}`,
          [platform, at - PAIRING_FAILURE_WINDOW_MS],
        );
        if (limiting !== undefined) {
          return {
            ok: false as const,
            reason: 'rate_limited' as const,
            retryAt: limiting.at + PAIRING_FAILURE_WINDOW_MS,
          };
        }
        const request = await byCode(client, platform, normalizePairingCode(typed));
        if (request === undefined || request.expires_at <= at) {
          await client.query('INSERT INTO pairing_failures (platform, at) VALUES ($1, $2)', [platform, at]);
          if (request === undefined) return { ok: false as const, reason: 'unknown' as const };
          if (request.created_at + PAIRING_CODE_TTL_MS <= at) {
            await client.query('DELETE FROM pairing_requests WHERE platform = $1 AND user_id = $2', [
              platform,
              request.user_id,
            ]);
          }
          return { ok: false as const, reason: 'expired' as const };
        }
        await client.query(
          `INSERT INTO approved_users (platform, user_id, user_name, approved_at) VALUES ($1, $2, $3, $4)
           ON CONFLICT (platform, user_id) DO UPDATE SET user_name = excluded.user_name, approved_at = excluded.approved_at`,
          [platform, request.user_id, request.user_name, at],
        );
        await client.query('DELETE FROM pairing_requests WHERE platform = $1 AND user_id = $2', [
          platform,
          request.user_id,
        ]);
        return { ok: true as const, userId: request.user_id, userName: request.user_name };
      }),
    async isApproved(platform, userId) {
      const row = await pgRow(pool, 'SELECT 1 FROM approved_users WHERE platform = $1 AND user_id = $2', [
        platform,
        userId,
      ]);
      return row !== undefined;
    },
    async deny(platform, code) {
      const at = now();
      const sql = 'UPDATE pairing_requests SET expires_at = $1 WHERE platform = $2 AND code = $3 AND expires_at > $4';
      return (await pgChanges(pool, sql, [at, platform, normalizePairingCode(code), at])) > 0;
    },
    async revoke(platform, userId) {
      const sql = 'DELETE FROM approved_users WHERE platform = $1 AND user_id = $2';
      return (await pgChanges(pool, sql, [platform, userId])) > 0;
    },
    list: () =>
      inPgTransaction(pool, async (client) => {
        const at = now();
        await purge(client, at);
        const pending = await pgRows<RequestRecord>(
          client,
          `SELECT ${REQUEST_COLUMNS} FROM pairing_requests WHERE expires_at > $1 ORDER BY expires_at, platform COLLATE "C", user_id COLLATE "C"`,
          [at],
        );
        const approved = await pgRows<ApprovedRecord>(
          client,
          'SELECT platform, user_id, user_name, approved_at FROM approved_users ORDER BY platform COLLATE "C", approved_at, user_id COLLATE "C"',
        );
        return { pending: pending.map(toPending), approved: approved.map(toApproved) };
      }),
    async firstApproved() {
      const record = await pgRow<ApprovedRecord>(
        pool,
        'SELECT platform, user_id, user_name, approved_at FROM approved_users ORDER BY approved_at, platform COLLATE "C", user_id COLLATE "C" LIMIT 1',
      );
      return record === undefined ? undefined : toApproved(record);
    },
  };
}
