import type { SqliteDatabase } from '../sqlite.js';
import { newPairingCode, normalizePairingCode, type RandomInt, secureRandomInt } from './pairing-code.js';
import {
  PAIRING_CODE_TTL_MS,
  PAIRING_FAILURE_WINDOW_MS,
  PAIRING_MAX_FAILURES,
  PAIRING_MAX_PENDING_PER_PLATFORM,
} from './pairing-limits.js';
import type {
  ApprovedUser,
  PairingApproveResult,
  PairingRepo,
  PairingRequestResult,
  PendingPairing,
} from './pairing-types.js';

export interface PairingRepoOptions {
  /** Milliseconds since the epoch. */
  now: () => number;
  /** Defaults to `crypto.randomInt`. */
  randomInt?: RandomInt;
}

export interface RequestRecord {
  platform: string;
  user_id: string;
  user_name: string | null;
  code: string;
  created_at: number;
  expires_at: number;
}

export interface ApprovedRecord {
  platform: string;
  user_id: string;
  user_name: string | null;
  approved_at: number;
}

/** Fresh codes drawn before giving up on finding one not already pending on the platform (a collision is ~10^-11). */
export const CODE_ATTEMPTS = 10;

export const toPending = (r: RequestRecord): PendingPairing => ({
  platform: r.platform,
  code: r.code,
  userId: r.user_id,
  userName: r.user_name,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
});

export const toApproved = (r: ApprovedRecord): ApprovedUser => ({
  platform: r.platform,
  userId: r.user_id,
  userName: r.user_name,
  approvedAt: r.approved_at,
});

/** Builds the pairing repository over pairing_requests, pairing_failures and approved_users; statements prepared once. */
export function createPairingRepo(db: SqliteDatabase, options: PairingRepoOptions): PairingRepo {
  const { now } = options;
  const random = options.randomInt ?? secureRandomInt;
  const REQUEST_COLUMNS = 'platform, user_id, user_name, code, created_at, expires_at';

  // a code expired early (the oldest on a full platform) keeps its row for one code lifetime from
  // when it was handed out: it is what stops its user from getting another reply within the hour
  const purgeRequests = db.prepare<[number, number]>(
    'DELETE FROM pairing_requests WHERE expires_at <= ? AND created_at <= ?',
  );
  const expireOldest = db.prepare<[number, string, number]>(
    `UPDATE pairing_requests SET expires_at = ? WHERE rowid = (
       SELECT rowid FROM pairing_requests WHERE platform = ? AND expires_at > ? ORDER BY created_at, rowid LIMIT 1)`,
  );
  const purgeFailures = db.prepare<[number]>('DELETE FROM pairing_failures WHERE at <= ?');
  const byUser = db.prepare<[string, string], RequestRecord>(
    `SELECT ${REQUEST_COLUMNS} FROM pairing_requests WHERE platform = ? AND user_id = ?`,
  );
  const byCode = db.prepare<[string, string], RequestRecord>(
    `SELECT ${REQUEST_COLUMNS} FROM pairing_requests WHERE platform = ? AND code = ?`,
  );
  const renameRequest = db.prepare<[string, string, string]>(
    'UPDATE pairing_requests SET user_name = ? WHERE platform = ? AND user_id = ?',
  );
  const countPending = db
    .prepare<[string, number], number>('SELECT COUNT(*) FROM pairing_requests WHERE platform = ? AND expires_at > ?')
    .pluck();
  const insertRequest = db.prepare<[RequestRecord]>(
    `INSERT INTO pairing_requests (${REQUEST_COLUMNS})
     VALUES (@platform, @user_id, @user_name, @code, @created_at, @expires_at)`,
  );
  const deleteRequest = db.prepare<[string, string]>('DELETE FROM pairing_requests WHERE platform = ? AND user_id = ?');
  // The PAIRING_MAX_FAILURES-th most recent failure still in the window: while it exists, approve is refused.
  const limitingFailure = db
    .prepare<[string, number], number>(
      `SELECT at FROM pairing_failures WHERE platform = ? AND at > ?
       ORDER BY at DESC LIMIT 1 OFFSET ${PAIRING_MAX_FAILURES - 1}`,
    )
    .pluck();
  const recordFailure = db.prepare<[string, number]>('INSERT INTO pairing_failures (platform, at) VALUES (?, ?)');
  const upsertApproved = db.prepare<[ApprovedRecord]>(
    `INSERT INTO approved_users (platform, user_id, user_name, approved_at)
     VALUES (@platform, @user_id, @user_name, @approved_at)
     ON CONFLICT (platform, user_id) DO UPDATE SET user_name = excluded.user_name, approved_at = excluded.approved_at`,
  );
  const isApproved = db
    .prepare<[string, string], number>('SELECT 1 FROM approved_users WHERE platform = ? AND user_id = ?')
    .pluck();
  const revoke = db.prepare<[string, string]>('DELETE FROM approved_users WHERE platform = ? AND user_id = ?');
  const expireCode = db.prepare<[number, string, string, number]>(
    'UPDATE pairing_requests SET expires_at = ? WHERE platform = ? AND code = ? AND expires_at > ?',
  );
  const listPending = db.prepare<[number], RequestRecord>(
    `SELECT ${REQUEST_COLUMNS} FROM pairing_requests WHERE expires_at > ? ORDER BY expires_at, platform, user_id`,
  );
  const listApproved = db.prepare<[], ApprovedRecord>(
    'SELECT platform, user_id, user_name, approved_at FROM approved_users ORDER BY platform, approved_at, user_id',
  );
  const firstApproved = db.prepare<[], ApprovedRecord>(
    'SELECT platform, user_id, user_name, approved_at FROM approved_users ORDER BY approved_at, platform, user_id LIMIT 1',
  );

  const purge = (at: number): void => {
    purgeRequests.run(at, at - PAIRING_CODE_TTL_MS);
    purgeFailures.run(at - PAIRING_FAILURE_WINDOW_MS);
  };

  const freshCode = (platform: string): string => {
    for (let i = 0; i < CODE_ATTEMPTS; i++) {
      const code = newPairingCode(random);
      if (byCode.get(platform, code) === undefined) return code;
    }
    throw new Error(`could not draw an unused pairing code for ${platform} in ${CODE_ATTEMPTS} attempts`);
  };

  const requestTx = db.transaction((platform: string, userId: string, userName?: string): PairingRequestResult => {
    const at = now();
    purge(at);
    const existing = byUser.get(platform, userId);
    if (existing !== undefined && existing.expires_at <= at) {
      // their code was expired early to make room: no second code (and reply) until the hour is over
      return { refused: 'recently_answered', retryAt: existing.created_at + PAIRING_CODE_TTL_MS };
    }
    if (existing !== undefined) {
      if (userName !== undefined && userName !== existing.user_name) renameRequest.run(userName, platform, userId);
      return { code: existing.code, expiresAt: existing.expires_at, isNew: false };
    }
    // a full platform never locks a new user out: the oldest pending code expires instead
    if ((countPending.get(platform, at) ?? 0) >= PAIRING_MAX_PENDING_PER_PLATFORM) expireOldest.run(at, platform, at);
    const record: RequestRecord = {
      platform,
      user_id: userId,
      user_name: userName ?? null,
      code: freshCode(platform),
      created_at: at,
      expires_at: at + PAIRING_CODE_TTL_MS,
    };
    insertRequest.run(record);
    return { code: record.code, expiresAt: record.expires_at, isNew: true };
  });

  const approveTx = db.transaction((platform: string, typed: string): PairingApproveResult => {
    const at = now();
    purgeFailures.run(at - PAIRING_FAILURE_WINDOW_MS);
    const limiting = limitingFailure.get(platform, at - PAIRING_FAILURE_WINDOW_MS);
    if (limiting !== undefined) {
      return { ok: false, reason: 'rate_limited', retryAt: limiting + PAIRING_FAILURE_WINDOW_MS };
    }
    const request = byCode.get(platform, normalizePairingCode(typed));
    if (request === undefined || request.expires_at <= at) {
      recordFailure.run(platform, at);
      if (request === undefined) return { ok: false, reason: 'unknown' };
      // a code expired early keeps its row until its hour is over (its user gets no second reply)
      if (request.created_at + PAIRING_CODE_TTL_MS <= at) deleteRequest.run(platform, request.user_id);
      return { ok: false, reason: 'expired' };
    }
    upsertApproved.run({ platform, user_id: request.user_id, user_name: request.user_name, approved_at: at });
    deleteRequest.run(platform, request.user_id);
    return { ok: true, userId: request.user_id, userName: request.user_name };
  });

  const listTx = db.transaction(() => {
    purge(now());
    return { pending: listPending.all(now()).map(toPending), approved: listApproved.all().map(toApproved) };
  });

  return {
    request: (platform, userId, userName) => requestTx.immediate(platform, userId, userName),
    approve: (platform, code) => approveTx.immediate(platform, code),
    isApproved: (platform, userId) => isApproved.get(platform, userId) !== undefined,
    revoke: (platform, userId) => revoke.run(platform, userId).changes > 0,
    deny: (platform, code) => {
      const at = now();
      return expireCode.run(at, platform, normalizePairingCode(code), at).changes > 0;
    },
    list: () => listTx.immediate(),
    firstApproved: () => {
      const record = firstApproved.get();
      return record === undefined ? undefined : toApproved(record);
    },
  };
}
