// Which processes still run with a marker in their command line (Linux /proc): the orphan check of the MCP tests.
import { readdirSync, readFileSync } from 'node:fs';

/** Live processes whose command line holds `marker`. */
export function processesWith(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(marker)) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}
