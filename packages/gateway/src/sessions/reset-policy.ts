/** Session reset policies (`session_reset`): none, idle minutes, a daily hour, or both. */
export interface ResetPolicy {
  mode: 'none' | 'idle' | 'daily' | 'both';
  idle_minutes: number;
  at_hour: number;
}

/** Why the policy ends a session: `idle_minutes` of silence, or the daily `at_hour` passed. */
export type PolicyReason = 'idle' | 'daily';

/** The session end reasons the reset policy writes ('reset_policy': what older versions wrote). */
export const POLICY_END_REASONS: readonly string[] = ['idle', 'daily', 'reset_policy'];

/** The idle window in milliseconds. */
export function idleWindowMs(policy: ResetPolicy): number {
  return policy.idle_minutes * 60_000;
}

/** The latest `at_hour` boundary at or before `now` (local time). */
function dailyBoundary(policy: ResetPolicy, now: number): number {
  const boundary = new Date(now);
  boundary.setHours(policy.at_hour, 0, 0, 0);
  if (boundary.getTime() > now) boundary.setDate(boundary.getDate() - 1);
  return boundary.getTime();
}

/**
 * Sessions last active before this time are due for a reset at `now` (null: the policy never
 * resets). Same rule as `resetReason`, as one bound a store query can use.
 */
export function resetCutoff(policy: ResetPolicy, now: number): number | null {
  switch (policy.mode) {
    case 'none':
      return null;
    case 'idle':
      return now - idleWindowMs(policy);
    case 'daily':
      return dailyBoundary(policy, now);
    case 'both':
      return Math.max(now - idleWindowMs(policy), dailyBoundary(policy, now));
  }
}

/** Why a session last active at `updatedAt` must be replaced by a fresh one at `now`; null when it need not. */
export function resetReason(updatedAt: number, policy: ResetPolicy, now: number): PolicyReason | null {
  if (policy.mode === 'none') return null;
  if (policy.mode !== 'daily' && updatedAt < now - idleWindowMs(policy)) return 'idle';
  if (policy.mode !== 'idle' && updatedAt < dailyBoundary(policy, now)) return 'daily';
  return null;
}

/** True when a session last active at `updatedAt` must be replaced by a fresh one at `now`. */
export function needsReset(updatedAt: number, policy: ResetPolicy, now: number): boolean {
  return resetReason(updatedAt, policy, now) !== null;
}
