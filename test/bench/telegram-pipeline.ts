// Telegram webhook in -> reply out, instant fake model: a bare grammy webhook echo bot and Hermes
// side by side on the same fake Bot API in one process; throughput at 64 chats, latency at 1 chat.
import type { FakeTelegram, RecordedCall, SentMessage } from '../fakes/telegram-server.js';
import { startFakeTelegram } from '../fakes/telegram-server.js';
import { type ModelProcess, startModelProcess } from './model-process.js';
import {
  collectGarbage,
  cpuPerMessage,
  describe,
  emptyFigures,
  perMessage,
  roundThroughputs,
  type SystemFigures,
} from './pipeline-figures.js';
import { type LoadResult, type ReplyWatch, runLoad, watchReplies, webhookClient } from './pipeline-load.js';
import {
  BENCH_MAX_CONCURRENT_RUNS,
  HERMES_ANSWER,
  type SystemUnderTest,
  startBareGrammy,
  startHermes,
} from './pipeline-systems.js';

const TOKEN = '424242:BENCH-token';
const REPLY_TIMEOUT_MS = 10_000;
const RUN_CAP_MS = 60_000;

interface Scenario {
  label: string;
  chats: number;
  /** messages measured per round */
  messages: number;
  /** messages sent first, on other chats (fresh) or on the measured chats (long) */
  warmup: number;
  rounds: number;
  /** warm up on the measured chats, so they carry `warmup / chats` turns of history */
  long: boolean;
}

/** Fresh chats: each slot moves to a new chat after this many messages (history stays under 20 rows). */
const TURNS_PER_FRESH_CHAT = 10;

export interface TelegramPipelineOptions {
  rounds?: number;
  /** also measure 64 chats that already carry a long history (default true) */
  long?: boolean;
}

interface Bench {
  fake: FakeTelegram;
  model: ModelProcess;
  watch: ReplyWatch;
  nextChat: number;
}

/** Drops what the fakes recorded (not their counters: message ids stay unique per chat). */
async function trimRecords(bench: Bench): Promise<number> {
  (bench.fake.calls as RecordedCall[]).length = 0;
  (bench.fake.sent as SentMessage[]).length = 0;
  return bench.model.takeRequestCount();
}

function freshChats(bench: Bench, count: number): number[] {
  const chats: number[] = [];
  for (let i = 0; i < count; i++) chats.push(bench.nextChat++);
  return chats;
}

async function measureOnce(
  bench: Bench,
  system: SystemUnderTest,
  scenario: Scenario,
  figures: SystemFigures,
): Promise<void> {
  const client = webhookClient(system.target, scenario.chats);
  const load = (chats: readonly number[], messages: number): Promise<LoadResult> =>
    runLoad(client, bench.watch, {
      chats,
      ...(scenario.long ? {} : { turnsPerChat: TURNS_PER_FRESH_CHAT, newChat: () => bench.nextChat++ }),
      messages,
      capMs: RUN_CAP_MS,
      replyTimeoutMs: REPLY_TIMEOUT_MS,
      update: (chatId, text) => bench.fake.webhookUpdate({ chatId, userId: chatId, text }),
      expect: system.expect,
    });
  try {
    const chats = freshChats(bench, scenario.chats);
    await load(scenario.long ? chats : freshChats(bench, scenario.chats), scenario.warmup);
    await trimRecords(bench);
    if (scenario.messages === 0) return;
    collectGarbage();
    const cpu = process.cpuUsage();
    const result = await load(chats, scenario.messages);
    const used = process.cpuUsage(cpu);
    figures.cpuMicros += used.user + used.system;
    figures.throughputs.push((result.count / result.elapsedMs) * 1000);
    figures.latencies.push(result.latenciesMs);
    figures.apiCalls += bench.fake.calls.length;
    figures.messages += result.count;
    figures.capped ||= result.capped;
    figures.modelRequests += await trimRecords(bench);
  } finally {
    client.close();
  }
}

async function runScenario(bench: Bench, systems: SystemUnderTest[], scenario: Scenario): Promise<void> {
  const figures = systems.map(emptyFigures);
  for (let round = 0; round < scenario.rounds; round++) {
    // alternate which system goes first, so drift within the run does not favour one
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const i of order) {
      const system = systems[i];
      const f = figures[i];
      if (system === undefined || f === undefined) continue;
      await measureOnce(bench, system, scenario, f);
    }
  }
  const [bare, hermes] = figures.map((f, i) => describe(systems[i]?.target.name ?? '?', f));
  const [bareFigures, hermesFigures] = figures;
  if (bare === undefined || hermes === undefined || bareFigures === undefined || hermesFigures === undefined) return;
  const ratio = hermes.tput / bare.tput;
  const delta = hermes.p99 - bare.p99;
  const sign = delta >= 0 ? '+' : '-';
  const latencyTarget = scenario.chats === 1 ? 'target <= 5 ms; performance.md: <= 2 ms at 1 chat' : 'target <= 5 ms';
  console.log(
    `telegram pipeline ${scenario.label}: ${bare.line}; ${hermes.line}; ` +
      `throughput ratio ${ratio.toFixed(2)}x (target >= 0.5x); p99 delta ${sign}${Math.abs(delta).toFixed(2)} ms (${latencyTarget})`,
  );
  const history = scenario.long
    ? `; the same ${scenario.chats} chats throughout, history ${(2 * scenario.warmup) / scenario.chats} -> ${(2 * (scenario.warmup + scenario.messages)) / scenario.chats} transcript rows per chat`
    : `; fresh chats, a new one every ${TURNS_PER_FRESH_CHAT} messages`;
  console.log(
    `  ${scenario.rounds} rounds x ${scenario.messages} messages after ${scenario.warmup} warm-up` +
      `; msg/s per round: bare ${roundThroughputs(bareFigures)}, hermes ${roundThroughputs(hermesFigures)}` +
      `; process CPU per message (load and fakes included): bare ${cpuPerMessage(bareFigures)} ms, hermes ${cpuPerMessage(hermesFigures)} ms` +
      `; Bot API calls per message: bare ${perMessage(bareFigures.apiCalls, bareFigures)}, hermes ${perMessage(hermesFigures.apiCalls, hermesFigures)}` +
      `; model requests per message: hermes ${perMessage(hermesFigures.modelRequests, hermesFigures)}${history}` +
      `; hermes gateway.max_concurrent_runs ${BENCH_MAX_CONCURRENT_RUNS} (default 8)`,
  );
}

/** Prints the Telegram pipeline figures. */
export async function runTelegramPipeline(options: TelegramPipelineOptions = {}): Promise<void> {
  const rounds = options.rounds ?? 3;
  const fake = await startFakeTelegram({ token: TOKEN, longPollCapMs: 50 });
  // the fake model runs in its own process, as a real endpoint does: its CPU is not the gateway's
  const model = await startModelProcess(HERMES_ANSWER);
  const watch = watchReplies(fake.sent);
  const bench: Bench = { fake, model, watch, nextChat: 1_000_001 };
  const systems: SystemUnderTest[] = [];
  try {
    systems.push(await startBareGrammy(fake));
    systems.push(await startHermes(fake, model));
    // first contact: JIT, connection pools and SQLite pages, before any round counts
    const warm: Scenario = { label: 'warm-up', chats: 64, messages: 0, warmup: 2000, rounds: 1, long: false };
    for (const system of systems) await measureOnce(bench, system, warm, emptyFigures());
    await trimRecords(bench);
    const scenarios: Scenario[] = [
      { label: '64 chats', chats: 64, messages: 3000, warmup: 500, rounds, long: false },
      { label: '1 chat', chats: 1, messages: 500, warmup: 100, rounds, long: false },
    ];
    if (options.long ?? true) {
      scenarios.push({ label: '64 long chats', chats: 64, messages: 3200, warmup: 3200, rounds: 1, long: true });
    }
    for (const scenario of scenarios) await runScenario(bench, systems, scenario);
    if (watch.unexpected > 0) console.log(`  warning: ${watch.unexpected} sendMessage calls no chat was waiting for`);
  } finally {
    for (const system of systems.reverse()) await system.close();
    watch.restore();
    await fake.close();
    await model.close();
  }
}
