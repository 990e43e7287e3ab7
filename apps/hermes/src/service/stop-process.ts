/** SIGTERM, wait for the process to go (it drains), then SIGKILL after the grace period. */
import { terminateThenKill } from '@hermes/protocol';
import { isAlive } from './process-info.js';

const POLL_MS = 100;
/** after SIGKILL, how long to wait for the process to disappear */
const KILL_WAIT_MS = 5_000;

export type StopOutcome = 'stopped' | 'killed' | 'not_running';

async function waitGone(pid: number, ms: number, stillOurs: () => boolean): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!isAlive(pid) || !stillOurs()) return true;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  return !isAlive(pid) || !stillOurs();
}

/**
 * Stops `pid`: SIGTERM, up to `graceMs` for it to exit, then SIGKILL. `isOwner` tells whether the
 * pid is still the process we mean (so a reused pid is never killed).
 */
export async function stopProcess(
  pid: number,
  options: { graceMs: number; isOwner: () => boolean },
): Promise<StopOutcome> {
  if (!isAlive(pid) || !options.isOwner()) return 'not_running';
  const signal = (name: 'SIGTERM' | 'SIGKILL'): boolean => {
    try {
      process.kill(pid, name);
      return true;
    } catch {
      return false;
    }
  };
  const outcome = await terminateThenKill(
    { signal, alive: () => isAlive(pid) && options.isOwner() },
    { graceMs: options.graceMs, pollMs: POLL_MS },
  );
  if (outcome === 'gone') return 'not_running';
  if (outcome === 'terminated') return 'stopped';
  await waitGone(pid, KILL_WAIT_MS, () => true);
  return 'killed';
}
