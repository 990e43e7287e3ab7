// `npm run bench -- pipeline`: message in -> reply out on Telegram, Discord and Slack, every system
// in a process of its own as users run it: the bare SDK bot (test/bench/bare/*) as a plain echo bot
// (no model) and asking the model with the official `openai` client, and Hermes (`hermes gateway
// run`), each on its own fake platform API in this process, the load generator here too, the fake
// model in a third process. Alternating rounds (echo, bare, hermes, echo, ...), warm-up excluded;
// medians; CPU per message from the measured process's own CPU time (/proc).
// On Telegram, OpenClaw follows once the others stopped (test/bench/openclaw-pipeline.ts).
import { cpus, loadavg } from 'node:os';
import { runClosedLoop } from './closed-loop.js';
import { type LongChatFigures, longChatTable, measureLongChat } from './long-chat.js';
import { type ModelProcess, startModelProcess } from './model-process.js';
import { openClawLines } from './openclaw-pipeline.js';
import { medianRound, platformTable, type Round, roundOf, type SystemSummary } from './process-figures.js';
import { closeAll, expectModelAnswer, MODEL_ANSWER, type PlatformRig, type RunningSystem } from './rig.js';
import { discordRig } from './rig-discord.js';
import { slackRig } from './rig-slack.js';
import { telegramRig } from './rig-telegram.js';
import { smokeOr } from './smoke.js';

const REPLY_TIMEOUT_MS = 15_000;
const RUN_CAP_MS = 60_000;
/** each slot moves to a new chat after this many messages, so history stays short (growth measures long) */
const TURNS_PER_FRESH_CHAT = 10;
/** Hermes's gateway.max_concurrent_runs here: as many turns at once as there are chats (default 8) */
export const PIPELINE_MAX_CONCURRENT_RUNS = 64;
/** messages per system before any round counts (first contact: JIT, connection pools, SQLite pages) */
export const FIRST_WARMUP = smokeOr(2000, 64);
/** messages before each round at 64 chats and at 1 chat, not counted */
export const ROUND_WARMUP = { many: smokeOr(300, 64), one: smokeOr(50, 10) };

export interface PipelineOptions {
  rounds: number;
  /** messages measured per round at 64 chats (1 chat: a third of it) */
  messages: number;
  platforms: readonly string[];
}

/**
 * BENCH_ROUNDS, BENCH_MESSAGES and BENCH_PLATFORMS (comma-separated) shorten a run while developing;
 * BENCH_SMOKE=1 makes the defaults 1 round of 128 messages.
 */
export function pipelineOptionsFromEnv(): PipelineOptions {
  const num = (name: string, fallback: number) => {
    const value = Number(process.env[name]);
    return Number.isInteger(value) && value > 0 ? value : fallback;
  };
  return {
    rounds: num('BENCH_ROUNDS', smokeOr(3, 1)),
    messages: num('BENCH_MESSAGES', smokeOr(3000, 128)),
    platforms: (process.env.BENCH_PLATFORMS ?? 'telegram,discord,slack').split(',').map((p) => p.trim()),
  };
}

export interface Scenario {
  chats: number;
  warmup: number;
  messages: number;
  /** a reply slower than this fails the round (default REPLY_TIMEOUT_MS) */
  replyTimeoutMs?: number;
  /** no new message after this long (default RUN_CAP_MS) */
  capMs?: number;
}

/** One system's round: warm-up (not counted), then `messages` measured from its own CPU time. */
export async function measure<C>(
  system: RunningSystem<C>,
  model: ModelProcess,
  scenario: Scenario,
): Promise<Round | null> {
  const load = (messages: number) =>
    runClosedLoop(system.traffic, {
      chats: Array.from({ length: scenario.chats }, () => system.traffic.newChat()),
      turnsPerChat: TURNS_PER_FRESH_CHAT,
      messages,
      capMs: scenario.capMs ?? RUN_CAP_MS,
      replyTimeoutMs: scenario.replyTimeoutMs ?? REPLY_TIMEOUT_MS,
      expect: expectModelAnswer,
    });
  await load(scenario.warmup);
  system.takeApiCalls();
  await model.takeRequestCount();
  if (scenario.messages === 0) return null;
  const cpuBefore = system.proc.cpuMs();
  const benchBefore = process.cpuUsage();
  const result = await load(scenario.messages);
  const cpuMs = system.proc.cpuMs() - cpuBefore;
  const bench = process.cpuUsage(benchBefore);
  benchBusy.set(system.label, [
    ...(benchBusy.get(system.label) ?? []),
    (bench.user + bench.system) / 10 / Math.max(1, result.elapsedMs),
  ]);
  return roundOf(result, cpuMs, system.takeApiCalls(), await model.takeRequestCount());
}

/** per system, how busy this process (the load generator and the fakes) was in each measured round, % of one core */
const benchBusy = new Map<string, number[]>();

/** One line: how busy the bench process was while it measured each system (a saturated one limits what it measures). */
function benchBusyLine(labels: readonly string[]): string {
  const parts = labels.map((label) => {
    const rounds = benchBusy.get(label) ?? [];
    return `${label} ${rounds.length > 0 ? Math.round(Math.max(...rounds)) : '?'} %`;
  });
  return `- the bench process (load generator and fake APIs) at its busiest during a measured round, % of one core: ${parts.join(', ')}`;
}

async function runPlatform<C>(rig: PlatformRig<C>, options: PipelineOptions): Promise<string> {
  const closers: (() => Promise<void>)[] = [];
  benchBusy.clear();
  try {
    const model = await startModelProcess(MODEL_ANSWER);
    closers.push(() => model.close());
    const systems: RunningSystem<C>[] = [];
    for (const kind of ['echo', 'bare', 'hermes'] as const) {
      const system = await rig.start({ kind, modelUrl: model.url, maxConcurrentRuns: PIPELINE_MAX_CONCURRENT_RUNS });
      closers.push(() => system.close());
      systems.push(system);
    }
    // first contact (JIT, connection pools, SQLite pages) before any round counts
    for (const system of systems) await measure(system, model, { chats: 64, warmup: FIRST_WARMUP, messages: 0 });
    const many: Round[][] = systems.map(() => []);
    const one: Round[][] = systems.map(() => []);
    const oneChat = Math.max(smokeOr(50, 20), Math.round(options.messages / 3));
    for (let round = 0; round < options.rounds; round++) {
      for (const [i, system] of systems.entries()) {
        const r = await measure(system, model, { chats: 64, warmup: ROUND_WARMUP.many, messages: options.messages });
        if (r) many[i]?.push(r);
      }
    }
    for (let round = 0; round < options.rounds; round++) {
      for (const [i, system] of systems.entries()) {
        const r = await measure(system, model, { chats: 1, warmup: ROUND_WARMUP.one, messages: oneChat });
        if (r) one[i]?.push(r);
      }
    }
    // one chat that keeps talking: the bare bot asking the model (its history sent whole), and Hermes
    const longChat: LongChatFigures[] = [];
    for (const system of systems.slice(1)) longChat.push(await measureLongChat(system, model));
    const summaries: SystemSummary[] = systems.map((system, i) => ({
      label: system.label,
      many: medianRound(many[i] ?? []),
      one: medianRound(one[i] ?? []),
      rssMb: system.proc.rssMb(),
      manyRounds: (many[i] ?? []).map((r) => r.msgPerSec),
    }));
    const [echo, bare, hermes] = summaries;
    if (echo === undefined || bare === undefined || hermes === undefined)
      throw new Error('pipeline: a system is missing');
    const strays = systems.filter((s) => s.unexpected() > 0).map((s) => `${s.label}: ${s.unexpected()}`);
    // the others stopped first: OpenClaw is measured on an otherwise idle machine too
    await closeAll(closers.splice(1));
    const openclaw = rig.platform === 'telegram' ? await openClawLines(rig, model, options.rounds) : [];
    return [
      platformTable(rig.platform, rig.apiCalls, [echo, bare], hermes),
      `- ${options.rounds} alternating rounds each of ${options.messages} messages at 64 chats and ${oneChat} at 1 chat, after ${FIRST_WARMUP.toLocaleString('en-US')} warm-up messages per system`,
      benchBusyLine(systems.map((system) => system.label)),
      ...(strays.length > 0 ? [`- warning: replies no chat waited for: ${strays.join(', ')}`] : []),
      '',
      ...longChatTable(longChat),
      ...(openclaw.length > 0
        ? [
            '',
            'OpenClaw, the peer users would pick instead (same fakes, measured after the others stopped):',
            '',
            ...openclaw,
          ]
        : []),
    ].join('\n');
  } finally {
    await closeAll(closers);
  }
}

export const RIGS: Record<string, PlatformRig<never>> = {
  telegram: telegramRig as PlatformRig<never>,
  discord: discordRig as PlatformRig<never>,
  slack: slackRig as PlatformRig<never>,
};

/** The machine and moment of a run, for the record in docs/performance.md. */
export function machineLine(): string {
  const cpu = cpus();
  return (
    `${new Date().toISOString()}; ${cpu.length} x ${cpu[0]?.model ?? 'unknown CPU'}; node ${process.version}; ` +
    `load average before: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`
  );
}

/** Prints, per platform, both systems' figures from their own processes, the ratios and the targets. */
export async function runProcessPipeline(options: PipelineOptions = pipelineOptionsFromEnv()): Promise<void> {
  console.log(`pipeline bench (every system in its own process): ${machineLine()}`);
  console.log(
    `- instant fake model in its own process; the bare bot runs twice: as a plain echo bot (no model request: ` +
      `the stack's limit, the baseline issue 17's targets are judged against) and asking the model once per ` +
      `message with the official openai client, each chat's history kept in memory and sent whole, as Hermes does; ` +
      `fresh chats (a new one every ${TURNS_PER_FRESH_CHAT} messages); hermes gateway.max_concurrent_runs ${PIPELINE_MAX_CONCURRENT_RUNS}; CPU and RSS of the system's own process (/proc)`,
  );
  for (const platform of options.platforms) {
    const rig = RIGS[platform];
    if (rig === undefined) throw new Error(`pipeline: unknown platform ${platform} (telegram, discord, slack)`);
    console.log(`\n${await runPlatform(rig, options)}`);
  }
}
