/** Session reset policies (`session_reset`): none, idle minutes, a daily hour, or both. */
export interface ResetPolicy {
  mode: 'none' | 'idle' | 'daily' | 'both';
  idle_minutes: number;
  at_hour: number;
}

/** True when a session last active at `updatedAt` must be replaced by a fresh one at `now`. */
export function needsReset(updatedAt: number, policy: ResetPolicy, now: number): boolean {
  if (policy.mode === 'none') return false;
  const idle = now - updatedAt > policy.idle_minutes * 60_000;
  const boundary = new Date(now);
  boundary.setHours(policy.at_hour, 0, 0, 0);
  if (boundary.getTime() > now) boundary.setDate(boundary.getDate() - 1);
  const daily = updatedAt < boundary.getTime();
  if (policy.mode === 'idle') return idle;
  if (policy.mode === 'daily') return daily;
  return idle || daily;
}
