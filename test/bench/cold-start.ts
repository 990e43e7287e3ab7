// `hermes --help` cold start against `node -e 0`, interleaved runs, medians and their ratio.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { smokeOr } from './smoke.js';

const RUNS = smokeOr(15, 2);
const BIN = fileURLToPath(new URL('../../apps/hermes/bin/hermes.js', import.meta.url));

function timeOnce(args: string[]): number {
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { stdio: 'ignore' });
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

/** Prints the cold-start figures. */
export async function runColdStart(): Promise<void> {
  const bare: number[] = [];
  const hermes: number[] = [];
  timeOnce(['-e', '0']);
  timeOnce([BIN, '--help']);
  for (let i = 0; i < RUNS; i++) {
    bare.push(timeOnce(['-e', '0']));
    hermes.push(timeOnce([BIN, '--help']));
  }
  const b = median(bare);
  const h = median(hermes);
  console.log(`cold start (median of ${RUNS}): node -e 0 ${b.toFixed(1)} ms; hermes --help ${h.toFixed(1)} ms`);
  console.log(`cold start ratio: ${(h / b).toFixed(2)}x node -e 0 (target <= 3x)`);
}
