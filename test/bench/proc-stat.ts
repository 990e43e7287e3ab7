// A process's own CPU time and resident memory, read from /proc (Linux): what the pipeline benches
// charge to the system under test, whatever language or runtime it is, without its cooperation.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's times (`getconf CLK_TCK`; 100 on every Linux we run). */
const TICKS_PER_SECOND: number = (() => {
  try {
    const n = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    return Number.isFinite(n) && n > 0 ? n : 100;
  } catch {
    return 100;
  }
})();

/**
 * CPU time (user + system, every thread of the process) in ms since it started, from
 * /proc/<pid>/stat fields 14 and 15. Resolution is one clock tick (10 ms): measure windows of seconds.
 */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // the command name (field 2) is in parentheses and may hold spaces: split after the last ')'
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state), so utime (14) and stime (15) are at 11 and 12
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) {
    throw new Error(`/proc/${pid}/stat: no utime/stime in ${JSON.stringify(stat.slice(0, 200))}`);
  }
  return ((utime + stime) * 1000) / TICKS_PER_SECOND;
}

/** Resident set size in MB (VmRSS of /proc/<pid>/status). */
export function processRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  if (match?.[1] === undefined) throw new Error(`/proc/${pid}/status: no VmRSS line`);
  return Number(match[1]) / 1024;
}
