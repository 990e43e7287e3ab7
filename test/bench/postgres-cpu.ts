// The CPU time of a PostgreSQL server started by test/helpers/postgres.ts, from /proc: the
// postmaster (found by its `-p <port>` argument) with its reaped children's time, plus every live
// backend and helper process it forked. Charged to the cluster bench's PostgreSQL setups.
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 10; // /proc times are in clock ticks: 100 per second on every Linux we run

function stat(pid: number): string[] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // fields after the command name; [0] is field 3 (state), [1] field 4 (ppid), [11..14] utime..cstime
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

function postmaster(port: number): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      const p = args.indexOf('-p');
      if (p > 0 && args[p + 1] === String(port) && /postgres$/.test(args[0] ?? '')) return Number(entry);
    } catch {
      // gone or not readable
    }
  }
  return undefined;
}

/** A reader of the server's CPU ms so far (0 when the server's processes cannot be found). */
export function postgresCpu(port: number): () => number {
  const master = postmaster(port);
  return () => {
    if (master === undefined) return 0;
    const own = stat(master);
    let ticks = own ? [11, 12, 13, 14].reduce((sum, i) => sum + Number(own[i] ?? 0), 0) : 0;
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const fields = stat(Number(entry));
      if (fields && Number(fields[1]) === master) ticks += Number(fields[11] ?? 0) + Number(fields[12] ?? 0);
    }
    return ticks * TICK_MS;
  };
}
