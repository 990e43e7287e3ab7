/**
 * One run per session across gateway instances sharing a database (docs/scaling.md): a lane's job
 * runs inside the cluster's session lease when the session can be reached through more than one
 * instance. Another instance may have added to the transcript since this one last ran the
 * session, so the cached copy is dropped and read again inside the lease. A message for a session
 * running elsewhere interrupts it there when the busy mode says so, and `/stop` stops it there.
 */
import type { SessionCache } from './session-cache.js';
import type { BusyMode } from './session-lanes.js';

export type SessionAction = 'stop' | 'interrupt';

/** What the cluster gives the gateway (cluster/cluster-node.ts). */
export interface SessionGuard {
  /** whether this session key can be run by another instance too (webhook platforms, the API platform) */
  shared(sessionKey: string): boolean;
  /** runs `run` while this instance holds the session's lease; `interrupt`: first ask the holder to stop its run */
  run(sessionKey: string, run: () => Promise<void>, options: { interrupt: boolean }): Promise<void>;
  /**
   * runs `run` now if this instance may touch the session with no run of it anywhere (the idle
   * sweep): without waiting for the lease; false when another instance holds it or this one is on
   * standby for its platform
   */
  tryRun(sessionKey: string, run: () => Promise<void>): Promise<boolean>;
  /** asks the instance running the session (elsewhere) to stop it; false when it runs nowhere */
  stopElsewhere(sessionKey: string): Promise<boolean>;
  /** what this instance does when another asks it to stop or interrupt one of its runs */
  handle(handler: (sessionKey: string, action: SessionAction) => boolean): void;
}

/** What a guarded run needs, bound to one gateway. */
export interface BoundGuard {
  guard: SessionGuard;
  cache: SessionCache;
  busyMode: BusyMode;
}

/** The lanes' side of a remote stop or interrupt. */
interface LocalLanes {
  stop(key: string): boolean;
  interrupt(key: string): boolean;
}

/** Binds the guard (absent: one instance) to a gateway's session cache, busy mode and lanes. */
export function clusterGuard(
  guard: SessionGuard | undefined,
  cache: SessionCache,
  busyMode: BusyMode,
  lanes: () => LocalLanes,
): BoundGuard | null {
  if (!guard) return null;
  guard.handle((key, action) => (action === 'stop' ? lanes().stop(key) : lanes().interrupt(key)));
  return { guard, cache, busyMode };
}

/** Runs `run` under the session's lease when `key` (null: a turn without a stored session) needs one. */
export function guardSession(bound: BoundGuard | null, key: string | null, run: () => Promise<void>): Promise<void> {
  if (!bound || key === null || !bound.guard.shared(key)) return run();
  const interrupt = bound.busyMode === 'interrupt';
  return bound.guard.run(
    key,
    () => {
      bound.cache.forget(key);
      return run();
    },
    { interrupt },
  );
}

/** The idle sweep's exclusion: at once on one instance, else the guard's `tryRun` with the cache dropped inside. */
export async function tryGuardSession(
  bound: BoundGuard | null,
  sessionKey: string,
  run: () => Promise<void>,
): Promise<boolean> {
  if (!bound) {
    await run();
    return true;
  }
  return bound.guard.tryRun(sessionKey, () => {
    bound.cache.forget(sessionKey);
    return run();
  });
}
