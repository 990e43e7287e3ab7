/**
 * A code handed out (`isNew` false when the user already had an unexpired one), or a refusal: the
 * user's code was expired early to make room for a newer stranger less than a code lifetime ago
 * (`retryAt`: when they may get a new one).
 */
export type PairingRequestResult =
  | { code: string; expiresAt: number; isNew: boolean }
  | { refused: 'recently_answered'; retryAt: number };

/** The approved user, or why not; `rate_limited` says when approving is allowed again. */
export type PairingApproveResult =
  | { ok: true; userId: string; userName: string | null }
  | { ok: false; reason: 'unknown' | 'expired' }
  | { ok: false; reason: 'rate_limited'; retryAt: number };

/** An unexpired pairing request; times are milliseconds since the epoch. */
export interface PendingPairing {
  platform: string;
  code: string;
  userId: string;
  userName: string | null;
  createdAt: number;
  expiresAt: number;
}

/** A user allowed in through pairing. */
export interface ApprovedUser {
  platform: string;
  userId: string;
  userName: string | null;
  approvedAt: number;
}

export interface PairingRepo {
  /**
   * Hands `userId` a pairing code valid PAIRING_CODE_TTL_MS (the same one again while unexpired); past
   * PAIRING_MAX_PENDING_PER_PLATFORM the platform's oldest pending code expires to make room.
   */
  request(platform: string, userId: string, userName?: string): PairingRequestResult;
  /** Consumes the code (case-insensitive) and approves its user; wrong codes are rate-limited per platform. */
  approve(platform: string, code: string): PairingApproveResult;
  /** True when the user was approved through pairing: one primary-key lookup, never cached. */
  isApproved(platform: string, userId: string): boolean;
  /**
   * Refuses a pending code (the console's deny): it expires now, so it leaves the pending list and
   * its user gets no new code until the code's hour is over (as a code expired early); false if no
   * unexpired request has this code.
   */
  deny(platform: string, code: string): boolean;
  /** Removes the user's approval; false if they were not approved. */
  revoke(platform: string, userId: string): boolean;
  /** Unexpired requests (soonest to expire first) and approved users (by platform, then approval time). */
  list(): { pending: PendingPairing[]; approved: ApprovedUser[] };
  /**
   * The user approved first (the owner when no allowlist names one; ties by platform, then user
   * id): one read, nothing purged, for every message of a gateway that asks.
   */
  firstApproved(): ApprovedUser | undefined;
}
