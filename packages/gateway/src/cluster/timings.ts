// From one number, gateway.cluster.failover_s, the timings that make a takeover happen within it.

export interface LeaseTimings {
  /** how often a non-holder tries to take a platform, and a holder checks its connection */
  retryMs: number;
  /** a holder's connection check must answer within this, else the holder gives its leases up */
  checkTimeoutMs: number;
  /** server-side TCP keep-alive of the lock connection (seconds): a holder whose machine vanished
   * without closing its socket is dropped by PostgreSQL, and its locks freed, after
   * idle + interval × count seconds of silence */
  keepalive: { idleS: number; intervalS: number; count: number };
}

export const DEFAULT_FAILOVER_S = 10;

export function leaseTimings(failoverS: number = DEFAULT_FAILOVER_S): LeaseTimings {
  if (!Number.isFinite(failoverS) || failoverS < 1) {
    throw new RangeError(`gateway.cluster.failover_s must be a number of seconds >= 1, got ${failoverS}`);
  }
  const retryMs = Math.min(5000, Math.max(200, Math.round((failoverS * 1000) / 5)));
  // the server may drop a silent holder only after the holder has noticed its own silence
  // (one retry period plus one check timeout), and early enough that a retry still fits
  const budgetS = Math.max(2, Math.floor(failoverS - retryMs / 1000));
  const idleS = Math.max(1, Math.floor(budgetS / 2));
  return {
    retryMs,
    checkTimeoutMs: retryMs,
    keepalive: { idleS, intervalS: 1, count: Math.max(1, budgetS - idleS) },
  };
}
