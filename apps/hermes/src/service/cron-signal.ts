/**
 * SIGUSR2 between `hermes cron add|edit|run|pause|resume|remove` and the running gateway of the same
 * HERMES_HOME (the pid in its lock): the CLI says the cron table changed and the scheduler re-reads it
 * at once, instead of at its next recheck (every 2 s, which still catches a change made by another
 * machine of a cluster, where no signal can go).
 */
import { liveOwner, lockPath } from './pid-lock.js';

/**
 * In `gateway run`, before the lock is taken: a SIGUSR2 arriving before the gateway is built is
 * kept (node's default for it would end the process) and passed on once `ready` gives the target.
 */
export function handleCronSignals(): { ready(target: { cronChanged(): void }): void; dispose(): void } {
  let target: { cronChanged(): void } | null = null;
  let pending = false;
  const onSignal = () => {
    if (target) target.cronChanged();
    else pending = true;
  };
  process.on('SIGUSR2', onSignal);
  return {
    ready(t) {
      target = t;
      if (pending) t.cronChanged();
    },
    dispose() {
      process.off('SIGUSR2', onSignal);
    },
  };
}

/** In the CLI, after a change to the cron table: tells this HERMES_HOME's running gateway, if any. */
export function tellGatewayCronChanged(home: string): void {
  const owner = liveOwner(lockPath(home));
  if (!owner) return;
  try {
    process.kill(owner.pid, 'SIGUSR2');
  } catch {
    // gone since, or not ours to signal: its recheck sees the change within seconds
  }
}
