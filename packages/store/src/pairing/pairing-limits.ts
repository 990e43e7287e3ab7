/** How long a pairing code stays valid after it is first handed out. */
export const PAIRING_CODE_TTL_MS = 60 * 60 * 1000;

/** Unexpired pairing codes allowed at once per platform; a new user past it expires the oldest code (never a lock-out). */
export const PAIRING_MAX_PENDING_PER_PLATFORM = 3;

/** Failed approve attempts (unknown or expired code) allowed per platform within PAIRING_FAILURE_WINDOW_MS. */
export const PAIRING_MAX_FAILURES = 5;

/** The sliding window of the approve rate limit: a failure stops counting this long after it happened. */
export const PAIRING_FAILURE_WINDOW_MS = 10 * 60 * 1000;
