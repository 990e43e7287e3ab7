/**
 * Child process groups Hermes started (a shell hook, a command-line TTS backend): each is killed
 * whole (the child and whatever it spawned) on a timeout, and any still running when Hermes exits
 * (a daemon's stop, a CLI's end) is killed then, so no grandchild outlives the process that owns it.
 */
const live = new Set<number>();
let exitHandlerInstalled = false;

/** SIGKILLs the group led by `pid` (spawned with `detached: true`); a group already gone is fine. */
export function killProcessGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  live.delete(pid);
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: the group is already gone; EPERM cannot happen for our own child. Never thrown from a timer.
  }
}

/** Remembers the group led by `pid` until it is killed or `forgetProcessGroup` is called. */
export function trackProcessGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  live.add(pid);
  if (exitHandlerInstalled) return;
  exitHandlerInstalled = true;
  process.once('exit', () => {
    for (const group of [...live]) killProcessGroup(group);
  });
}

/** The group ended by itself: nothing to kill at exit. */
export function forgetProcessGroup(pid: number | undefined): void {
  if (pid !== undefined) live.delete(pid);
}
