// `npm run bench -- pipeline`: message in -> reply out on Telegram, Discord, Slack, WhatsApp, Matrix,
// Signal and email, every system in a process of its own as users run it: the bare SDK bot
// (test/bench/bare/*; where no Node SDK fits, the platform's HTTP API as its docs show it) as a
// plain echo bot (no model) and asking the model with the official `openai` client, and Hermes
// (`hermes gateway run`), each on its own fake platform API in this process, the load generator
// here too, the fake model in a third process. Alternating rounds (echo, bare, hermes, echo, ...), warm-up excluded;
// medians; CPU per message from the measured process's own CPU time (/proc).
// On Telegram, OpenClaw follows once the others stopped (test/bench/openclaw-pipeline.ts).
import { cpus, loadavg } from 'node:os';
import { runClosedLoop } from './closed-loop.js';
import {
  LONG_CHAT_SIZE,
  type LongChatFigures,
  type LongChatSize,
  longChatTable,
  measureLongChat,
} from './long-chat.js';
import { type ModelProcess, startModelProcess } from './model-process.js';
import { openClawLines } from './openclaw-pipeline.js';
import { medianRound, platformTable, type Round, roundOf, type SystemSummary } from './process-figures.js';
import { closeAll, expectModelAnswer, MODEL_ANSWER, type PlatformRig, type RunningSystem } from './rig.js';
import { discordRig } from './rig-discord.js';
import { emailRig } from './rig-email.js';
import { matrixRig } from './rig-matrix.js';
import { signalRig } from './rig-signal.js';
import { slackRig } from './rig-slack.js';
import { telegramRig } from './rig-telegram.js';
import { whatsappRig } from './rig-whatsapp.js';
import { BENCH_SMOKE, smokeOr } from './smoke.js';

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
    platforms: (process.env.BENCH_PLATFORMS ?? Object.keys(RIGS).join(',')).split(',').map((p) => p.trim()),
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

/** per system label, how busy this process (the load generator and the fakes) was in each measured round, % of one core */
export type BenchBusy = Map<string, number[]>;

/**
 * One system's round: warm-up (not counted), then `messages` measured from its own CPU time; how
 * busy the bench process was meanwhile is added to `busy` when given.
 */
export async function measure<C>(
  system: RunningSystem<C>,
  model: ModelProcess,
  scenario: Scenario,
  busy?: BenchBusy,
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
  busy?.set(system.label, [
    ...(busy.get(system.label) ?? []),
    (bench.user + bench.system) / 10 / Math.max(1, result.elapsedMs),
  ]);
  return roundOf(result, cpuMs, system.takeApiCalls(), await model.takeRequestCount());
}

/** One line: how busy the bench process was while it measured each system (a saturated one limits what it measures). */
function benchBusyLine(busy: BenchBusy, labels: readonly string[]): string {
  const parts = labels.map((label) => {
    const rounds = busy.get(label) ?? [];
    return `${label} ${rounds.length > 0 ? Math.round(Math.max(...rounds)) : '?'} %`;
  });
  return `- the bench process (load generator and fake APIs) at its busiest during a measured round, % of one core: ${parts.join(', ')}`;
}

/** How much one platform's run sends: the same for every platform but the slow ones (email). */
export interface PlatformSizes {
  /** messages per system before any round counts */
  firstWarmup: number;
  /** messages before each round at 64 chats and at 1 chat, not counted */
  roundWarmup: { many: number; one: number };
  /** messages measured per round at 64 chats and at 1 chat */
  many: number;
  one: number;
  longChat: LongChatSize;
  /** why this platform's sizes are smaller (printed under its table) */
  note?: string;
}

/** Email's share of the 1-chat rounds and the long chat (why: the note below). */
const EMAIL_SHARE = 10;

/**
 * BENCH_SMOKE=1: WhatsApp, Matrix, Signal and email run side by side (the others one after
 * another, as in a real run) with a few messages each, enough to prove the rig and every system
 * answer (their starts are most of what they cost); email, which answers every ~110 ms, fewer.
 */
const SIDE_BY_SIDE_IN_SMOKE = new Set(['whatsapp', 'matrix', 'signal', 'email']);
const SMOKE_TINY: PlatformSizes = {
  firstWarmup: 16,
  roundWarmup: { many: 8, one: 2 },
  many: 16,
  one: 5,
  longChat: { exchanges: 6, window: 2 },
};
const SMOKE_TINY_EMAIL: PlatformSizes = {
  ...SMOKE_TINY,
  roundWarmup: { many: 8, one: 1 },
  one: 2,
  longChat: { exchanges: 3, window: 1 },
};

/** The sizes of `platform`'s run. */
export function platformSizes(platform: string, options: PipelineOptions): PlatformSizes {
  if (BENCH_SMOKE && SIDE_BY_SIDE_IN_SMOKE.has(platform)) return platform === 'email' ? SMOKE_TINY_EMAIL : SMOKE_TINY;
  const one = Math.max(smokeOr(50, 20), Math.round(options.messages / 3));
  if (platform !== 'email') {
    return {
      firstWarmup: FIRST_WARMUP,
      roundWarmup: ROUND_WARMUP,
      many: options.messages,
      one,
      longChat: LONG_CHAT_SIZE,
    };
  }
  const share = (n: number, floor: number) => Math.max(floor, Math.round(n / EMAIL_SHARE));
  return {
    firstWarmup: FIRST_WARMUP,
    roundWarmup: { many: ROUND_WARMUP.many, one: share(ROUND_WARMUP.one, 5) },
    many: options.messages,
    one: share(one, 10),
    longChat: { exchanges: share(LONG_CHAT_SIZE.exchanges, 20), window: share(LONG_CHAT_SIZE.window, 10) },
    note:
      'email is slow by nature: each answer is an SMTP session of its own (nodemailer, Hermes and the bare bot alike) ' +
      'and the fake SMTP server greets 100 ms after a connect (its early-talker check), so one chat gets an answer ' +
      "every ~110 ms at best: its 1-chat rounds and its long chat send a tenth of the other platforms' messages",
  };
}

async function runPlatform<C>(rig: PlatformRig<C>, options: PipelineOptions): Promise<string> {
  const closers: (() => Promise<void>)[] = [];
  const busy: BenchBusy = new Map();
  const sizes = platformSizes(rig.platform, options);
  try {
    const model = await startModelProcess(MODEL_ANSWER);
    closers.push(() => model.close());
    // started side by side (nothing is measured before all three run), each on a fake of its own
    const started = await Promise.allSettled(
      (['echo', 'bare', 'hermes'] as const).map((kind) =>
        rig.start({ kind, modelUrl: model.url, maxConcurrentRuns: PIPELINE_MAX_CONCURRENT_RUNS }),
      ),
    );
    const systems: RunningSystem<C>[] = [];
    for (const result of started) {
      if (result.status === 'fulfilled') {
        closers.push(() => result.value.close());
        systems.push(result.value);
      }
    }
    const failed = started.find((result) => result.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    // first contact (JIT, connection pools, SQLite pages) before any round counts
    for (const system of systems) await measure(system, model, { chats: 64, warmup: sizes.firstWarmup, messages: 0 });
    const many: Round[][] = systems.map(() => []);
    const one: Round[][] = systems.map(() => []);
    for (let round = 0; round < options.rounds; round++) {
      for (const [i, system] of systems.entries()) {
        const r = await measure(
          system,
          model,
          { chats: 64, warmup: sizes.roundWarmup.many, messages: sizes.many },
          busy,
        );
        if (r) many[i]?.push(r);
      }
    }
    for (let round = 0; round < options.rounds; round++) {
      for (const [i, system] of systems.entries()) {
        const r = await measure(system, model, { chats: 1, warmup: sizes.roundWarmup.one, messages: sizes.one }, busy);
        if (r) one[i]?.push(r);
      }
    }
    // one chat that keeps talking: the bare bot asking the model (its history sent whole), and Hermes
    const longChat: LongChatFigures[] = [];
    for (const system of systems.slice(1)) longChat.push(await measureLongChat(system, model, sizes.longChat));
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
      `- ${options.rounds} alternating rounds each of ${sizes.many} messages at 64 chats and ${sizes.one} at 1 chat, after ${sizes.firstWarmup.toLocaleString('en-US')} warm-up messages per system`,
      ...(sizes.note === undefined ? [] : [`- ${sizes.note}`]),
      benchBusyLine(
        busy,
        systems.map((system) => system.label),
      ),
      ...(strays.length > 0 ? [`- warning: replies no chat waited for: ${strays.join(', ')}`] : []),
      '',
      ...longChatTable(longChat, sizes.longChat),
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
  whatsapp: whatsappRig as PlatformRig<never>,
  matrix: matrixRig as PlatformRig<never>,
  signal: signalRig as PlatformRig<never>,
  email: emailRig as PlatformRig<never>,
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
  const rigOf = (platform: string) => {
    const rig = RIGS[platform];
    if (rig === undefined) throw new Error(`pipeline: unknown platform ${platform} (${Object.keys(RIGS).join(', ')})`);
    return rig;
  };
  // the smoke run's platforms that came with issue 33 run side by side (figures mean nothing there,
  // npm test's time counts), once the others are done; printed in the list's order all the same
  const together = BENCH_SMOKE ? options.platforms.filter((p) => SIDE_BY_SIDE_IN_SMOKE.has(p)) : [];
  let group: Promise<string[]> | undefined;
  for (const platform of options.platforms) {
    const rig = rigOf(platform);
    if (together.length > 1 && together.includes(platform)) {
      if (group === undefined) console.log(`\n- BENCH_SMOKE=1: ${together.join(', ')} run side by side`);
      group ??= Promise.all(together.map((p) => runPlatform(rigOf(p), options)));
      console.log(`\n${(await group)[together.indexOf(platform)]}`);
    } else console.log(`\n${await runPlatform(rig, options)}`);
  }
}
