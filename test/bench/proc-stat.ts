// A process's own CPU time and resident memory, read from /proc (Linux): what the pipeline benches
// charge to the system under test, whatever language or runtime it is, without its cooperation.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

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

/** The pids of `pid`'s live descendants (every thread's children), from /proc/<pid>/task/<tid>/children. */
export function descendants(pid: number): number[] {
  const found: number[] = [];
  const queue = [pid];
  for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${next}/task`);
    } catch {
      continue; // exited meanwhile
    }
    for (const tid of tasks) {
      let children = '';
      try {
        children = readFileSync(`/proc/${next}/task/${tid}/children`, 'utf8');
      } catch {
        continue;
      }
      for (const child of children.split(' ')) {
        const id = Number(child);
        if (child.trim() === '' || !Number.isInteger(id)) continue;
        found.push(id);
        queue.push(id);
      }
    }
  }
  return found;
}

/** Sums `read` over a process and its live descendants (one that exits meanwhile counts 0). */
function overTree(pid: number, read: (pid: number) => number): number {
  let total = read(pid);
  for (const child of descendants(pid)) {
    try {
      total += read(child);
    } catch {
      // exited between the listing and the read
    }
  }
  return total;
}

/** CPU time of a process and its live descendants, ms (a system that runs helper processes). */
export const processTreeCpuMs = (pid: number): number => overTree(pid, processCpuMs);

/** Resident set size of a process and its live descendants, MB. */
export const processTreeRssMb = (pid: number): number => overTree(pid, processRssMb);
