// How long a process's main thread (its event loop, for Node) was runnable but waiting for a CPU,
// from /proc/<pid>/schedstat (Linux, schedstats): on a shared, loaded machine this is the part of a
// reply's latency that is the machine's, not the process's. The growth bench prints it per message.
import { readFileSync } from 'node:fs';

export interface SchedStat {
  /** time on a CPU, ms */
  runMs: number;
  /** time runnable but waiting in the run queue, ms */
  waitMs: number;
}

/** The main thread's time on a CPU and in the run queue since it started; null where the kernel has no schedstat. */
export function mainThreadSched(pid: number): SchedStat | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/schedstat`, 'utf8');
  } catch {
    return null;
  }
  // "<ns on cpu> <ns waiting on a runqueue> <timeslices>"
  const [run, wait] = text.trim().split(/\s+/).map(Number);
  if (run === undefined || wait === undefined || !Number.isFinite(run) || !Number.isFinite(wait)) return null;
  return { runMs: run / 1e6, waitMs: wait / 1e6 };
}
