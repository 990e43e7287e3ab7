// The figures the process benches collect per system and scenario, and how they are summed up:
// medians over rounds, the ratios of Hermes to the bare bot, and the three targets of issue 17.
import { percentile } from './pipeline-load.js';

/** One measured round of one system. */
export interface Round {
  msgPerSec: number;
  /** the measured process's own CPU time per answered message, ms */
  cpuMsPerMsg: number;
  p50: number;
  p90: number;
  p99: number;
  apiCallsPerMsg: number;
  modelRequestsPerMsg: number;
  capped: boolean;
}

export const median = (xs: readonly number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

/** A round's figures from its answered count, wall time, CPU time and sorted latencies. */
export function roundOf(
  result: { count: number; elapsedMs: number; latenciesMs: Float64Array; capped: boolean },
  cpuMs: number,
  apiCalls: number,
  modelRequests: number,
): Round {
  const n = Math.max(1, result.count);
  return {
    msgPerSec: (result.count / result.elapsedMs) * 1000,
    cpuMsPerMsg: cpuMs / n,
    p50: percentile(result.latenciesMs, 50),
    p90: percentile(result.latenciesMs, 90),
    p99: percentile(result.latenciesMs, 99),
    apiCallsPerMsg: apiCalls / n,
    modelRequestsPerMsg: modelRequests / n,
    capped: result.capped,
  };
}

/** The median of each figure over rounds. */
export function medianRound(rounds: readonly Round[]): Round {
  const pick = (key: Exclude<keyof Round, 'capped'>) => median(rounds.map((r) => r[key]));
  return {
    msgPerSec: pick('msgPerSec'),
    cpuMsPerMsg: pick('cpuMsPerMsg'),
    p50: pick('p50'),
    p90: pick('p90'),
    p99: pick('p99'),
    apiCallsPerMsg: pick('apiCallsPerMsg'),
    modelRequestsPerMsg: pick('modelRequestsPerMsg'),
    capped: rounds.some((r) => r.capped),
  };
}

/** One system's medians on one platform. */
export interface SystemSummary {
  label: string;
  /** 64 chats (throughput) */
  many: Round;
  /** 1 chat (latency) */
  one: Round;
  /** resident memory after the run, MB */
  rssMb: number;
  /** each round's msg/s at 64 chats, for the spread */
  manyRounds: number[];
}

export interface Verdict {
  name: string;
  value: string;
  met: boolean;
}

/** The three targets of issue 17, item 2. */
export function verdicts(bare: SystemSummary, hermes: SystemSummary): Verdict[] {
  const cpu = hermes.many.cpuMsPerMsg / bare.many.cpuMsPerMsg;
  const tput = hermes.many.msgPerSec / bare.many.msgPerSec;
  const p99 = hermes.one.p99 - bare.one.p99;
  return [
    { name: 'CPU per message <= 2x bare (64 chats)', value: `${cpu.toFixed(2)}x`, met: cpu <= 2 },
    { name: 'throughput at 64 chats >= 0.5x bare', value: `${tput.toFixed(2)}x`, met: tput >= 0.5 },
    { name: 'p99 at 1 chat <= bare + 2 ms', value: `${p99 >= 0 ? '+' : ''}${p99.toFixed(2)} ms`, met: p99 <= 2 },
  ];
}

const f0 = (x: number) => x.toFixed(0);
const f2 = (x: number) => x.toFixed(2);
/** msg/s: whole numbers, two decimals below 10 (OpenClaw answers a few per second) */
const rate = (x: number) => (x < 10 ? f2(x) : f0(x));

/** The ratio row of Hermes against one baseline. */
function ratioRow(baseline: SystemSummary, hermes: SystemSummary): string {
  const p99 = hermes.one.p99 - baseline.one.p99;
  return (
    `| hermes / ${baseline.label} | ${f2(hermes.many.msgPerSec / baseline.many.msgPerSec)}x | ` +
    `${f2(hermes.many.cpuMsPerMsg / baseline.many.cpuMsPerMsg)}x | p99 ${p99 >= 0 ? '+' : ''}${f2(p99)} ms | ` +
    `${f2(hermes.one.cpuMsPerMsg / baseline.one.cpuMsPerMsg)}x | ${f2(hermes.rssMb / baseline.rssMb)}x | | |`
  );
}

/** The platform table's header lines. */
export const tableHeader = (apiCalls: string): string[] => [
  `| system | msg/s at 64 chats (rounds) | CPU ms/msg at 64 chats | p50 / p90 / p99 ms at 1 chat | CPU ms/msg at 1 chat | RSS MB after | ${apiCalls}/msg | model requests/msg |`,
  '|---|---|---|---|---|---|---|---|',
];

/** One system's row of the platform table. */
export const systemRow = (s: SystemSummary): string =>
  `| ${s.label} | ${rate(s.many.msgPerSec)} (${s.manyRounds.map(rate).join('/')}) | ${f2(s.many.cpuMsPerMsg)} | ` +
  `${f2(s.one.p50)} / ${f2(s.one.p90)} / ${f2(s.one.p99)} | ${f2(s.one.cpuMsPerMsg)} | ${f0(s.rssMb)} | ` +
  `${f2(s.many.apiCallsPerMsg)} | ${f2(s.many.modelRequestsPerMsg)} |${s.many.capped || s.one.capped ? ' (time cap hit)' : ''}`;

/**
 * The platform's figures as a Markdown table, a ratio row per baseline, and the targets: judged
 * against the first baseline (the plain echo bot, as issue 17 measured), shown against the others.
 */
export function platformTable(
  platform: string,
  apiCalls: string,
  baselines: readonly SystemSummary[],
  hermes: SystemSummary,
): string {
  const row = systemRow;
  const lines = [
    `### ${platform}`,
    '',
    ...tableHeader(apiCalls),
    ...baselines.map(row),
    row(hermes),
    ...baselines.map((b) => ratioRow(b, hermes)),
  ];
  for (const [i, baseline] of baselines.entries()) {
    lines.push('', `Targets against ${baseline.label}${i === 0 ? " (the issue's baseline)" : ''}:`);
    lines.push(...verdicts(baseline, hermes).map((v) => `- ${v.name}: ${v.value}: ${v.met ? 'met' : '**not met**'}`));
  }
  return lines.join('\n');
}
