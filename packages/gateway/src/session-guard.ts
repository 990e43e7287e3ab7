/**
 * One run per session across gateway instances sharing a database (docs/scaling.md): a lane's job
 * runs inside the deps' `sessionGuard` (a session lease in PostgreSQL) when the session can be
 * reached through more than one instance. Another instance may have added to the transcript since
 * this one last ran the session, so its cached copy is dropped and read again inside the lease.
 */
import type { SessionCache } from './session-cache.js';

/** What the cluster gives the gateway: which sessions need a lease, and running under one. */
export type SessionGuard = {
  /** whether this session key can be run by another instance too (webhook platforms, the API platform) */
  shared(sessionKey: string): boolean;
  /** runs `run` while this instance holds the session's lease, waiting for it first */
  run(sessionKey: string, run: () => Promise<void>): Promise<void>;
};

export function guardSession(
  guard: SessionGuard | undefined,
  cache: SessionCache,
  sessionKey: string | null,
  run: () => Promise<void>,
): Promise<void> {
  if (!guard || sessionKey === null || !guard.shared(sessionKey)) return run();
  return guard.run(sessionKey, () => {
    cache.forget(sessionKey);
    return run();
  });
}
