// The figures the pipeline benchmarks collect per system, and how one system's figures are summed up.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { percentile } from './pipeline-load.js';

export interface SystemFigures {
  throughputs: number[];
  /** process CPU time (user + system, every thread) over the measured messages, in microseconds */
  cpuMicros: number;
  latencies: Float64Array[];
  /** platform API calls the fake recorded during the measured messages */
  apiCalls: number;
  modelRequests: number;
  messages: number;
  capped: boolean;
}

export const emptyFigures = (): SystemFigures => ({
  throughputs: [],
  cpuMicros: 0,
  latencies: [],
  apiCalls: 0,
  modelRequests: 0,
  messages: 0,
  capped: false,
});

/** A full GC between runs, so one system's garbage is not collected on the other's time. */
export const collectGarbage: () => void = (() => {
  setFlagsFromString('--expose-gc');
  const gc: unknown = runInNewContext('typeof gc === "function" ? gc : undefined');
  return typeof gc === 'function' ? () => void gc() : () => {};
})();

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

/** Every run's latencies in one ascending array. */
export function pooled(runs: Float64Array[]): Float64Array {
  const all = new Float64Array(runs.reduce((n, r) => n + r.length, 0));
  let at = 0;
  for (const r of runs) {
    all.set(r, at);
    at += r.length;
  }
  return all.sort();
}

/** `NAME N msg/s p50 X ms p99 Y ms`: the median round's throughput, percentiles over all rounds. */
export function describe(name: string, f: SystemFigures): { line: string; tput: number; p99: number } {
  const all = pooled(f.latencies);
  const tput = median(f.throughputs);
  const p50 = percentile(all, 50);
  const p99 = percentile(all, 99);
  const capped = f.capped ? ' (time cap hit)' : '';
  const line = `${name} ${tput.toFixed(0)} msg/s p50 ${p50.toFixed(2)} ms p99 ${p99.toFixed(2)} ms${capped}`;
  return { line, tput, p99 };
}

/** process CPU per measured message, in ms */
export const cpuPerMessage = (f: SystemFigures) => (f.cpuMicros / f.messages / 1000).toFixed(2);
/** each round's msg/s, `a/b/c` */
export const roundThroughputs = (f: SystemFigures) => f.throughputs.map((t) => t.toFixed(0)).join('/');
/** `n` per measured message */
export const perMessage = (n: number, f: SystemFigures) => (n / f.messages).toFixed(2);
