// Discord and Slack message in -> reply out, instant fake model: a bare SDK echo bot (discord.js,
// Bolt Socket Mode) and Hermes with the real adapter side by side in one process; throughput at 64
// chats, latency at 1 chat, in the same shape as the Telegram pipeline benchmark.
//
// Each system gets a fake of its own (two identical instances of the same fake): the fake Discord
// dispatches every MESSAGE_CREATE to every connected session and the fake Slack sends every envelope
// to the newest socket, so on one shared fake both bots would see (and one would answer) the other's
// traffic. The idle fake costs nothing while the other system is measured.
import { discordFactory } from '../../plugins/platforms/discord/index.js';
import { slackFactory } from '../../plugins/platforms/slack/index.js';
import { type FakeDiscord, startFakeDiscord } from '../fakes/discord-server.js';
import { type FakeSlack, startFakeSlack } from '../fakes/slack-server.js';
import { type ChatTraffic, runClosedLoop } from './closed-loop.js';
import {
  type DiscordChat,
  discordChats,
  injectMessage,
  startBareDiscordEcho,
  watchDiscordReplies,
} from './discord-echo.js';
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
import { BENCH_MAX_CONCURRENT_RUNS, HERMES_ANSWER, startHermesFor } from './pipeline-systems.js';
import { injectSlackMessage, type SlackChat, slackChat, startBareSlackEcho, watchSlackReplies } from './slack-echo.js';

const REPLY_TIMEOUT_MS = 10_000;
const RUN_CAP_MS = 30_000;
/** Fresh chats: each slot moves to a new chat after this many messages (history stays under 20 rows). */
const TURNS_PER_FRESH_CHAT = 10;
/**
 * discord.js paces all REST calls of a bot at 50 per second by default (Discord's global limit); at
 * that pace neither system could go past 50 msg/s, so both get the same, effectively unpaced, limit.
 */
export const BENCH_GLOBAL_REQUESTS_PER_SECOND = 100_000;

const DISCORD_TOKEN = 'MTc3NzAwMTc3NzAwMTc3NzAwMQ.GbEnCh.BENCH-discord-token-0123456789abcdefghij';
const SLACK_BOT_TOKEN = 'xoxb-4770017770-4770027770-BenchBotToken';
const SLACK_APP_TOKEN = 'xapp-1-A0BENCH0001-4770037770-BenchAppToken';

export interface PlatformPipelineOptions {
  /** measured rounds per scenario, alternating which system goes first (default 2) */
  rounds?: number;
  /** also measure 64 chats that already carry a long history (default false) */
  long?: boolean;
}

/** One system on its own fake: how its chats are written in and its replies seen. */
interface PlatformSystem<C> {
  name: string;
  /** true when `reply` is this system's answer to a message with text `sent` */
  expect(sent: string, reply: string): boolean;
  traffic: ChatTraffic<C>;
  /** platform API calls the fake recorded since the last call; its records are dropped */
  takeApiCalls(): number;
  /** replies no chat was waiting for */
  unexpected(): number;
}

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

interface PlatformBench<C> {
  platform: string;
  /** what the platform's API calls are called in the output */
  apiCalls: string;
  model: ModelProcess;
  /** [bare, hermes] */
  systems: PlatformSystem<C>[];
}

function chatsOf<C>(system: PlatformSystem<C>, count: number): C[] {
  return Array.from({ length: count }, () => system.traffic.newChat());
}

async function measureOnce<C>(
  bench: PlatformBench<C>,
  system: PlatformSystem<C>,
  scenario: Scenario,
  figures: SystemFigures,
): Promise<void> {
  const load = (chats: readonly C[], messages: number) =>
    runClosedLoop(system.traffic, {
      chats,
      ...(scenario.long ? {} : { turnsPerChat: TURNS_PER_FRESH_CHAT }),
      messages,
      capMs: RUN_CAP_MS,
      replyTimeoutMs: REPLY_TIMEOUT_MS,
      expect: (sent, reply) => system.expect(sent, reply),
    });
  const chats = chatsOf(system, scenario.chats);
  await load(scenario.long ? chats : chatsOf(system, scenario.chats), scenario.warmup);
  system.takeApiCalls();
  await bench.model.takeRequestCount();
  if (scenario.messages === 0) return;
  collectGarbage();
  const cpu = process.cpuUsage();
  const result = await load(chats, scenario.messages);
  const used = process.cpuUsage(cpu);
  figures.cpuMicros += used.user + used.system;
  figures.throughputs.push((result.count / result.elapsedMs) * 1000);
  figures.latencies.push(result.latenciesMs);
  figures.messages += result.count;
  figures.capped ||= result.capped;
  figures.apiCalls += system.takeApiCalls();
  figures.modelRequests += await bench.model.takeRequestCount();
}

async function runScenario<C>(bench: PlatformBench<C>, scenario: Scenario): Promise<void> {
  const { systems } = bench;
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
  const [bare, hermes] = figures.map((f, i) => describe(systems[i]?.name ?? '?', f));
  const [bareFigures, hermesFigures] = figures;
  if (bare === undefined || hermes === undefined || bareFigures === undefined || hermesFigures === undefined) return;
  const ratio = hermes.tput / bare.tput;
  const delta = hermes.p99 - bare.p99;
  const sign = delta >= 0 ? '+' : '-';
  const latencyTarget = scenario.chats === 1 ? 'target <= 5 ms; performance.md: <= 2 ms at 1 chat' : 'target <= 5 ms';
  console.log(
    `${bench.platform} pipeline ${scenario.label}: ${bare.line}; ${hermes.line}; ` +
      `throughput ratio ${ratio.toFixed(2)}x (target >= 0.5x); p99 delta ${sign}${Math.abs(delta).toFixed(2)} ms (${latencyTarget})`,
  );
  const history = scenario.long
    ? `; the same ${scenario.chats} chats throughout, history ${(2 * scenario.warmup) / scenario.chats} -> ${(2 * (scenario.warmup + scenario.messages)) / scenario.chats} transcript rows per chat`
    : `; fresh chats, a new one every ${TURNS_PER_FRESH_CHAT} messages`;
  console.log(
    `  ${scenario.rounds} rounds x ${scenario.messages} messages after ${scenario.warmup} warm-up` +
      `; msg/s per round: bare ${roundThroughputs(bareFigures)}, hermes ${roundThroughputs(hermesFigures)}` +
      `; process CPU per message (load and fakes included): bare ${cpuPerMessage(bareFigures)} ms, hermes ${cpuPerMessage(hermesFigures)} ms` +
      `; ${bench.apiCalls} per message: bare ${perMessage(bareFigures.apiCalls, bareFigures)}, hermes ${perMessage(hermesFigures.apiCalls, hermesFigures)}` +
      `; model requests per message: hermes ${perMessage(hermesFigures.modelRequests, hermesFigures)}${history}`,
  );
}

/** Warm-up, the scenarios, and the warning about stray replies. */
async function runPlatformBench<C>(bench: PlatformBench<C>, options: PlatformPipelineOptions): Promise<void> {
  const rounds = options.rounds ?? 2;
  // first contact: JIT, connection pools and SQLite pages, before any round counts
  const warm: Scenario = { label: 'warm-up', chats: 64, messages: 0, warmup: 1000, rounds: 1, long: false };
  for (const system of bench.systems) await measureOnce(bench, system, warm, emptyFigures());
  const scenarios: Scenario[] = [
    { label: '64 chats', chats: 64, messages: 2000, warmup: 300, rounds, long: false },
    { label: '1 chat', chats: 1, messages: 300, warmup: 50, rounds, long: false },
  ];
  if (options.long === true) {
    scenarios.push({ label: '64 long chats', chats: 64, messages: 1600, warmup: 1600, rounds: 1, long: true });
  }
  for (const scenario of scenarios) await runScenario(bench, scenario);
  for (const system of bench.systems) {
    if (system.unexpected() > 0)
      console.log(`  warning: ${system.name}: ${system.unexpected()} replies no chat waited for`);
  }
}

/** Closes in reverse order of opening; every close runs even when one fails, the first failure is thrown. */
async function closeAll(closers: (() => Promise<void>)[]): Promise<void> {
  let failure: unknown;
  for (const close of closers.reverse()) {
    try {
      await close();
    } catch (error) {
      failure ??= error;
    }
  }
  if (failure !== undefined) throw failure;
}

/** Prints the Discord pipeline figures: a bare discord.js echo bot against Hermes's Discord adapter. */
export async function runDiscordPipeline(options: PlatformPipelineOptions = {}): Promise<void> {
  const closers: (() => Promise<void>)[] = [];
  try {
    // the fake model runs in its own process, as a real endpoint does: its CPU is not the gateway's
    const model = await startModelProcess(HERMES_ANSWER);
    closers.push(() => model.close());
    let nextUser = 0;
    const onFake = async (
      name: string,
      expect: (sent: string, reply: string) => boolean,
      start: (fake: FakeDiscord) => Promise<() => Promise<void>>,
    ): Promise<PlatformSystem<DiscordChat>> => {
      const fake = await startFakeDiscord({ token: DISCORD_TOKEN });
      closers.push(() => fake.close());
      const watch = watchDiscordReplies(fake);
      closers.push(async () => watch.restore());
      closers.push(await start(fake));
      return {
        name,
        expect,
        traffic: {
          send: (chat, text) => void injectMessage(fake, chat, text),
          next: (chat, timeoutMs) => watch.next(chat.channelId, timeoutMs),
          newChat: () => discordChats(fake, 1, 'dm', nextUser++)[0] as DiscordChat,
          describe: (chat) => `discord DM ${chat.channelId}`,
        },
        takeApiCalls() {
          const calls = fake.calls.length;
          fake.reset();
          return calls;
        },
        unexpected: () => watch.unexpected,
      };
    };
    const bare = await onFake(
      'bare discord.js',
      (sent, reply) => reply === sent,
      async (fake) => {
        const bot = await startBareDiscordEcho(fake, { globalRequestsPerSecond: BENCH_GLOBAL_REQUESTS_PER_SECOND });
        return () => bot.stop();
      },
    );
    const hermes = await onFake(
      'hermes',
      (_sent, reply) => reply === HERMES_ANSWER,
      async (fake) => {
        const env = { DISCORD_BOT_TOKEN: fake.token, DISCORD_ALLOWED_USERS: '*' };
        const settings = { api_base: fake.apiBase, global_requests_per_second: BENCH_GLOBAL_REQUESTS_PER_SECOND };
        const gateway = await startHermesFor(discordFactory, env, settings, model.url);
        return () => gateway.close();
      },
    );
    console.log(
      `discord pipeline setup: DMs over the gateway WebSocket; bare discord.js echo bot and Hermes (discord adapter), ` +
        `each on its own fake Discord; REST global_requests_per_second ${BENCH_GLOBAL_REQUESTS_PER_SECOND} for both ` +
        `(discord.js default 50/s); fake model in its own process; hermes gateway.max_concurrent_runs ${BENCH_MAX_CONCURRENT_RUNS} (default 8)`,
    );
    await runPlatformBench({ platform: 'discord', apiCalls: 'REST calls', model, systems: [bare, hermes] }, options);
  } finally {
    await closeAll(closers);
  }
}

/** Prints the Slack pipeline figures: a bare Bolt Socket Mode echo app against Hermes's Slack adapter. */
export async function runSlackPipeline(options: PlatformPipelineOptions = {}): Promise<void> {
  const closers: (() => Promise<void>)[] = [];
  try {
    const model = await startModelProcess(HERMES_ANSWER);
    closers.push(() => model.close());
    let nextChat = 0;
    const onFake = async (
      name: string,
      expect: (sent: string, reply: string) => boolean,
      start: (fake: FakeSlack) => Promise<() => Promise<void>>,
    ): Promise<PlatformSystem<SlackChat>> => {
      const fake = await startFakeSlack({ botToken: SLACK_BOT_TOKEN, appToken: SLACK_APP_TOKEN });
      closers.push(() => fake.close());
      const watch = watchSlackReplies(fake);
      closers.push(async () => watch.restore());
      closers.push(await start(fake));
      await fake.waitForLiveSocket(10_000);
      return {
        name,
        expect,
        traffic: {
          send: (chat, text) => injectSlackMessage(fake, chat, text),
          next: (chat, timeoutMs) => watch.next(chat.channel, timeoutMs),
          newChat: () => slackChat(nextChat++),
          describe: (chat) => `slack DM ${chat.channel}`,
        },
        takeApiCalls() {
          const calls = fake.calls.length;
          fake.reset();
          return calls;
        },
        unexpected: () => watch.unexpected,
      };
    };
    const bare = await onFake(
      'bare Bolt',
      (sent, reply) => reply === sent,
      async (fake) => {
        const app = await startBareSlackEcho(fake);
        return () => app.stop();
      },
    );
    const hermes = await onFake(
      'hermes',
      (_sent, reply) => reply === HERMES_ANSWER,
      async (fake) => {
        const env = { SLACK_BOT_TOKEN: fake.botToken, SLACK_APP_TOKEN: fake.appToken, SLACK_ALLOWED_USERS: '*' };
        const settings = { api_url: fake.apiUrl, mode: 'socket' };
        const gateway = await startHermesFor(slackFactory, env, settings, model.url);
        return () => gateway.close();
      },
    );
    console.log(
      'slack pipeline setup: DMs over Socket Mode; bare Bolt echo app (say in the thread) and Hermes (slack adapter), ' +
        `each on its own fake Slack; fake model in its own process; hermes gateway.max_concurrent_runs ${BENCH_MAX_CONCURRENT_RUNS} (default 8)`,
    );
    await runPlatformBench({ platform: 'slack', apiCalls: 'Web API calls', model, systems: [bare, hermes] }, options);
  } finally {
    await closeAll(closers);
  }
}
