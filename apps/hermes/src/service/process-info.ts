/** Is a pid alive, and when did it start: what tells a live lock from a stale one (a dead or reused pid). */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** True when a process with this pid exists and has not exited (a zombie waiting to be reaped counts as gone). */
export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: it exists but belongs to someone else
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true; // no /proc (macOS): signal 0 is the answer
  }
}

/**
 * A stable token for when the process started: on Linux field 22 of /proc/PID/stat (clock ticks
 * since boot), elsewhere `ps -o lstart=`. Null when the process does not exist or it cannot tell.
 */
export function processStartToken(pid: number): string | null {
  if (!isAlive(pid)) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) may hold spaces and parentheses: count fields after the last ')'
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = rest[19];
    if (ticks) return `linux:${ticks}`;
  } catch {
    // not Linux: fall through to ps
  }
  try {
    const out = execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8' }).trim();
    return out ? `ps:${out}` : null;
  } catch {
    return null;
  }
}

/** True when `pid` is alive and is still the process that started at `token` (not a reused pid). */
export function isSameProcess(pid: number, token: string | null): boolean {
  const now = processStartToken(pid);
  if (now === null) return false;
  return token === null || now === token;
}
