import { type TerminateOutcome, terminateThenKill } from '@hermes/protocol';
import { errnoCode } from './errno.js';

/** How long a process group gets between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 2_000;
const KILL_POLL_MS = 50;

export type SignalSender = (pid: number, signal: NodeJS.Signals | 0) => unknown;

export interface KillGroupOptions {
  graceMs?: number;
  pollMs?: number;
  /** process.kill by default */
  kill?: SignalSender;
  sleep?: (ms: number) => Promise<void>;
}

/** What happened: the group was already gone, died after SIGTERM, or needed SIGKILL. */
export type KillOutcome = TerminateOutcome;

/** Sends `signal` to process group `pgid`; false when the group no longer exists. */
function signalGroup(kill: SignalSender, pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    kill(-pgid, signal);
    return true;
  } catch (error) {
    if (errnoCode(error) === 'ESRCH') return false;
    throw error;
  }
}

/** SIGTERM to process group `pgid`, then SIGKILL if any member (zombies included) is still there after `graceMs`. */
export function killProcessGroup(pgid: number, options: KillGroupOptions = {}): Promise<KillOutcome> {
  const kill = options.kill ?? process.kill.bind(process);
  return terminateThenKill(
    { signal: (signal) => signalGroup(kill, pgid, signal), alive: () => signalGroup(kill, pgid, 0) },
    {
      graceMs: options.graceMs ?? KILL_GRACE_MS,
      pollMs: options.pollMs ?? KILL_POLL_MS,
      ...(options.sleep ? { sleep: options.sleep } : {}),
    },
  );
}
