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

/** Which baseline a system is: the plain echo bot (no model) or the SDK bot asking the model. */
export type BaselineKind = 'echo' | 'model';

/**
 * The targets against a baseline. The echo bot: issue 17's three (CPU <= 2x, throughput >= 0.5x,
 * p99 <= + 2 ms) and issue 31's throughput >= 0.5x; the SDK bot asking the model with the openai
 * client: issue 31's three (CPU <= 0.67x, throughput >= 1.5x, p99 no higher).
 */
export function verdicts(bare: SystemSummary, hermes: SystemSummary, kind: BaselineKind = 'echo'): Verdict[] {
  const cpu = hermes.many.cpuMsPerMsg / bare.many.cpuMsPerMsg;
  const tput = hermes.many.msgPerSec / bare.many.msgPerSec;
  const p99 = hermes.one.p99 - bare.one.p99;
  const x = (v: number) => `${v.toFixed(2)}x`;
  const ms = `${p99 >= 0 ? '+' : ''}${p99.toFixed(2)} ms`;
  if (kind === 'model') {
    return [
      { name: 'issue 31: CPU per message <= 0.67x bare (64 chats)', value: x(cpu), met: cpu <= 0.67 },
      { name: 'issue 31: throughput at 64 chats >= 1.5x bare', value: x(tput), met: tput >= 1.5 },
      { name: 'issue 31: p99 at 1 chat <= bare', value: ms, met: p99 <= 0 },
    ];
  }
  return [
    { name: 'issue 17: CPU per message <= 2x bare (64 chats)', value: x(cpu), met: cpu <= 2 },
    { name: 'issue 17 and 31: throughput at 64 chats >= 0.5x bare', value: x(tput), met: tput >= 0.5 },
    { name: 'issue 17: p99 at 1 chat <= bare + 2 ms', value: ms, met: p99 <= 2 },
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
 * The platform's figures as a Markdown table, a ratio row per baseline, and the targets: the first
 * baseline is the plain echo bot (issue 17's and 31's floor), the second the SDK bot asking the
 * model with the openai client (issue 31's targets).
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
    const kind: BaselineKind = i === 0 ? 'echo' : 'model';
    lines.push('', `Targets against ${baseline.label}:`);
    lines.push(
      ...verdicts(baseline, hermes, kind).map((v) => `- ${v.name}: ${v.value}: ${v.met ? 'met' : '**not met**'}`),
    );
  }
  return lines.join('\n');
}
