/**
 * Stopping a process the polite way, one implementation for the terminal tool's process groups and
 * the CLI's `gateway stop`/replace: SIGTERM, poll until it is gone for up to `graceMs`, then SIGKILL.
 */

/** What is being stopped: a process, or a process group. */
export interface Terminable {
  /** sends the signal; false when there is nothing left to signal */
  signal(signal: 'SIGTERM' | 'SIGKILL'): boolean;
  /** true while it still runs (and is still the one meant) */
  alive(): boolean;
}

/** Already gone before SIGTERM, gone after SIGTERM within the grace period, or SIGKILLed. */
export type TerminateOutcome = 'gone' | 'terminated' | 'killed';

export interface TerminateOptions {
  graceMs: number;
  pollMs: number;
  sleep?: (ms: number) => Promise<void>;
}

const timerSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** SIGTERM, up to `graceMs` (polled every `pollMs`) for it to go, then SIGKILL if it is still there. */
export async function terminateThenKill(target: Terminable, options: TerminateOptions): Promise<TerminateOutcome> {
  const sleep = options.sleep ?? timerSleep;
  if (!target.signal('SIGTERM')) return 'gone';
  for (let waitedMs = 0; waitedMs < options.graceMs; waitedMs += options.pollMs) {
    await sleep(options.pollMs);
    if (!target.alive()) return 'terminated';
  }
  return target.signal('SIGKILL') ? 'killed' : 'terminated';
}
