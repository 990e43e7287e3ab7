// `npm run bench -- cluster`: messages answered per second and latency through one gateway on
// SQLite, one on PostgreSQL, and two instances sharing PostgreSQL (docs/scaling.md), on the API
// platform (requests spread over both instances, as a load balancer does) and on Telegram long
// polling (one instance holds the bot; the other stands by). Each gateway is `hermes gateway run`
// in a process of its own; the fake model in another (test/bench/model-process.ts); the load
// generator, the fake Bot API and the PostgreSQL server (test/helpers/postgres.ts) here.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { stringify } from 'yaml';
import { startFakeTelegram } from '../fakes/telegram-server.js';
import { type PostgresServer, startPostgres } from '../helpers/postgres.js';
import { HERMES_BIN } from '../helpers/run-hermes.js';
import { type ChatTraffic, runClosedLoop } from './closed-loop.js';
import { type ModelProcess, startModelProcess } from './model-process.js';
import { percentile, watchReplies } from './pipeline-load.js';
import { postgresCpu } from './postgres-cpu.js';
import { median } from './process-figures.js';
import { expectModelAnswer, MODEL_ANSWER } from './rig.js';
import { smokeOr } from './smoke.js';
import { type SystemProcess, spawnSystem } from './system-process.js';

type Setup = 'sqlite x1' | 'postgres x1' | 'postgres x2' | 'postgres x2, sticky';
type Platform = 'api' | 'telegram';
/** `sticky`: the API platform's load balancer sends each session to one instance (else: each request in turn) */
const SETUPS: Record<Platform, readonly Setup[]> = smokeOr(
  {
    api: ['sqlite x1', 'postgres x1', 'postgres x2', 'postgres x2, sticky'],
    telegram: ['sqlite x1', 'postgres x1', 'postgres x2'],
  },
  // a smoke run: each backend, two instances and the sticky balancer once (3 setups of 7)
  { api: ['sqlite x1', 'postgres x2, sticky'], telegram: ['postgres x2'] },
);
const TELEGRAM_TOKEN = '424243:BENCH-cluster-token';
const REPLY_TIMEOUT_MS = 20_000;
const RUN_CAP_MS = 120_000;
const TURNS_PER_FRESH_CHAT = 10;
const MAX_CONCURRENT_RUNS = 64;
/** PostgreSQL's max_connections here (its own default is 100) */
const MAX_PG_CONNECTIONS = 200;

interface Options {
  messages: number;
  chats: number;
  rounds: number;
  platforms: Platform[];
}

function optionsFromEnv(): Options {
  const num = (name: string, fallback: number) => {
    const value = Number(process.env[name]);
    return Number.isInteger(value) && value > 0 ? value : fallback;
  };
  const platforms = (process.env.BENCH_PLATFORMS ?? 'api,telegram').split(',').map((p) => p.trim());
  return {
    messages: num('BENCH_MESSAGES', smokeOr(2000, 64)),
    chats: num('BENCH_CHATS', smokeOr(32, 16)),
    rounds: num('BENCH_ROUNDS', 1),
    platforms: platforms.filter((p): p is Platform => p === 'api' || p === 'telegram'),
  };
}

interface Gateway {
  proc: SystemProcess;
  url: string;
  home: string;
}

/** `hermes gateway run` with its own home; `database`: on PostgreSQL as instance `id`. */
async function startGateway(
  id: string,
  modelUrl: string,
  platforms: Record<string, unknown>,
  env: Record<string, string>,
  database: string | undefined,
): Promise<Gateway> {
  const home = mkdtempSync(join(tmpdir(), 'hermes-bench-cluster-'));
  mkdirSync(join(home, 'locks'));
  const config = {
    model: { default: 'fake-model', base_url: modelUrl },
    terminal: { cwd: home },
    ...(database ? { state: { backend: 'postgres' } } : {}),
    gateway: { host: '127.0.0.1', port: 0, max_concurrent_runs: MAX_CONCURRENT_RUNS, platforms },
  };
  writeFileSync(join(home, 'config.yaml'), stringify(config));
  const proc = await spawnSystem({
    name: `hermes gateway run (${id})`,
    command: process.execPath,
    args: [process.env.BENCH_HERMES_BIN || HERMES_BIN, 'gateway', 'run'],
    env: {
      ...env,
      HERMES_HOME: home,
      HERMES_LOCK_DIR: join(home, 'locks'),
      HERMES_INSTANCE_ID: id,
      ...(database ? { HERMES_DATABASE_URL: database } : {}),
    },
    ready: /listening on (http:\/\/127\.0\.0\.1:\d+)/,
    timeoutMs: 30_000,
  });
  return { proc, url: proc.readyMatch[1] ?? '', home };
}

async function platformStates(gateway: Gateway): Promise<Record<string, string>> {
  try {
    const body = (await (await fetch(`${gateway.url}/health`)).json()) as {
      platforms?: Record<string, { state: string }>;
    };
    return Object.fromEntries(Object.entries(body.platforms ?? {}).map(([k, v]) => [k, v.state]));
  } catch {
    return {};
  }
}

/** Telegram: one instance connected, every other standing by. */
async function telegramReady(gateways: Gateway[]): Promise<void> {
  const deadline = performance.now() + 30_000;
  for (;;) {
    const states = await Promise.all(gateways.map(async (g) => (await platformStates(g)).telegram));
    const connected = states.filter((s) => s === 'connected').length;
    if (connected === 1 && states.every((s) => s === 'connected' || s === 'standby')) return;
    if (performance.now() > deadline) throw new Error(`telegram not ready: ${JSON.stringify(states)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The API platform: each message a chat completion; a chat is a session key; the instances taken
 * in turn per request, or (`sticky`) each session always on the same one.
 */
function apiTraffic(gateways: Gateway[], sticky: boolean): ChatTraffic<string> {
  const waiting = new Map<string, (reply: { at: number; text: string }) => void>();
  let turn = 0;
  let chats = 0;
  return {
    async send(chat, text) {
      const index = sticky ? Number(chat.slice('bench-'.length)) : turn++;
      const gateway = gateways[index % gateways.length] as Gateway;
      const res = await fetch(`${gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hermes-session': chat },
        body: JSON.stringify({ model: 'hermes', messages: [{ role: 'user', content: text }] }),
      });
      const at = performance.now();
      const body = (await res.json()) as { choices?: { message?: { content?: string } }[] };
      if (res.status !== 200) throw new Error(`api ${chat}: ${res.status} ${JSON.stringify(body)}`);
      waiting.get(chat)?.({ at, text: body.choices?.[0]?.message?.content ?? '' });
    },
    next: (chat, timeoutMs) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`api ${chat}: no answer in ${timeoutMs} ms`)), timeoutMs);
        waiting.set(chat, (reply) => {
          clearTimeout(timer);
          waiting.delete(chat);
          resolve(reply);
        });
      }),
    newChat: () => `bench-${chats++}`,
    describe: (chat) => `api session ${chat}`,
  };
}

interface Figures {
  msgPerSec: number;
  p50: number;
  p95: number;
  gatewayCpuMsPerMsg: number;
  postgresCpuMsPerMsg: number | null;
  /** the most client connections PostgreSQL had during the measured load (the sampler's own excluded) */
  peakConnections: number | null;
}

async function measure(
  platform: Platform,
  setup: Setup,
  model: ModelProcess,
  server: PostgresServer,
  options: Options,
): Promise<Figures> {
  const closers: (() => Promise<void> | void)[] = [];
  const homes: string[] = [];
  let failed = false;
  try {
    const database = setup === 'sqlite x1' ? undefined : await server.newDatabase('bench');
    const instances = setup.startsWith('postgres x2') ? 2 : 1;
    let traffic: ChatTraffic<string> | ChatTraffic<number>;
    const start = async (settings: Record<string, unknown>, env: Record<string, string>) => {
      const gateways: Gateway[] = [];
      for (let i = 1; i <= instances; i++) {
        const gateway = await startGateway(`bench-${i}`, model.url, settings, env, database);
        closers.push(async () => {
          await gateway.proc.stop();
          if (!failed) rmSync(gateway.home, { recursive: true, force: true });
        });
        gateways.push(gateway);
        homes.push(gateway.home);
      }
      return gateways;
    };
    let gateways: Gateway[];
    if (platform === 'api') {
      gateways = await start({}, {});
      traffic = apiTraffic(gateways, setup.endsWith('sticky'));
    } else {
      const fake = await startFakeTelegram({ token: TELEGRAM_TOKEN, longPollCapMs: 1_000 });
      closers.push(() => fake.close());
      const watch = watchReplies(fake.sent);
      closers.push(() => watch.restore());
      const settings = { telegram: { api_root: fake.apiRoot, poll_timeout_s: 1 } };
      gateways = await start(settings, { TELEGRAM_BOT_TOKEN: TELEGRAM_TOKEN, TELEGRAM_ALLOWED_USERS: '*' });
      await telegramReady(gateways);
      let chats = 0;
      traffic = {
        send: (chatId: number, text: string) => void fake.pushMessage({ chatId, userId: chatId, text }),
        next: (chatId: number, timeoutMs: number) => watch.next(chatId, timeoutMs),
        newChat: () => 2_000_001 + chats++,
        describe: (chatId: number) => `telegram chat ${chatId}`,
      };
    }
    const load = (messages: number) =>
      runClosedLoop(traffic as ChatTraffic<unknown>, {
        chats: Array.from({ length: options.chats }, () => traffic.newChat()),
        turnsPerChat: TURNS_PER_FRESH_CHAT,
        messages,
        capMs: RUN_CAP_MS,
        replyTimeoutMs: REPLY_TIMEOUT_MS,
        expect: expectModelAnswer,
      });
    await load(Math.min(500, options.messages));
    const pgCpu = database ? postgresCpu(server.port) : () => 0;
    const cpu = () => gateways.reduce((sum, g) => sum + g.proc.cpuMs(), 0);
    const [cpuBefore, pgBefore] = [cpu(), pgCpu()];
    const sampler = database ? await connectionSampler(server.url) : undefined;
    const result = await load(options.messages);
    const peakConnections = (await sampler?.stop()) ?? null;
    const n = Math.max(1, result.count);
    return {
      msgPerSec: (result.count / result.elapsedMs) * 1000,
      p50: percentile(result.latenciesMs, 50),
      p95: percentile(result.latenciesMs, 95),
      gatewayCpuMsPerMsg: (cpu() - cpuBefore) / n,
      postgresCpuMsPerMsg: database ? (pgCpu() - pgBefore) / n : null,
      peakConnections,
    };
  } catch (error) {
    failed = true; // the homes are kept (their logs), and named
    throw new Error(`${error instanceof Error ? error.message : String(error)} (homes kept: ${homes.join(', ')})`);
  } finally {
    for (const close of closers.reverse()) await close();
  }
}

/** Samples PostgreSQL's client connections every 250 ms over one connection of its own; stop() gives the most seen. */
async function connectionSampler(url: string): Promise<{ stop(): Promise<number> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let peak = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const { rows } = await client.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()",
      );
      peak = Math.max(peak, rows[0]?.n ?? 0);
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      await client.end();
      return peak;
    },
  };
}

const fixed = (x: number, digits = 2) => (Number.isFinite(x) ? x.toFixed(digits) : '-');

export async function runCluster(): Promise<void> {
  const options = optionsFromEnv();
  console.log(
    `\ncluster bench: ${new Date().toISOString()}; ${cpus().length} x ${cpus()[0]?.model ?? '?'}; node ${process.version}; load average before: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    `- ${options.chats} concurrent chats (closed loop, a fresh chat every ${TURNS_PER_FRESH_CHAT} messages), ${options.messages} messages measured after a warm-up, ${options.rounds} round(s) (medians); instant fake model in its own process; gateway.max_concurrent_runs ${MAX_CONCURRENT_RUNS}; CPU of every gateway process and of the PostgreSQL server (postmaster and backends) from /proc; PostgreSQL max_connections ${MAX_PG_CONNECTIONS}, the most client connections seen in the last column`,
  );
  const model = await startModelProcess(MODEL_ANSWER);
  // a loaded gateway opens up to ~46 connections (32 chats): more than the test servers' 60 for two
  const server = await startPostgres({ maxConnections: MAX_PG_CONNECTIONS });
  try {
    for (const platform of options.platforms) {
      const rounds = new Map<Setup, Figures[]>(SETUPS[platform].map((s) => [s, []]));
      for (let round = 0; round < options.rounds; round++) {
        for (const setup of SETUPS[platform]) {
          const figures = await measure(platform, setup, model, server, options).catch((error: unknown) => {
            throw new Error(`${platform}, ${setup}: ${error instanceof Error ? error.message : String(error)}`);
          });
          rounds.get(setup)?.push(figures);
        }
      }
      console.log(
        `\n#### ${platform === 'api' ? 'API platform (requests spread over the instances)' : 'Telegram long polling (one instance holds the bot)'}\n`,
      );
      console.log(
        '| setup | msg/s | p50 / p95 ms | gateway CPU ms/msg (all instances) | PostgreSQL CPU ms/msg | PostgreSQL connections (most) |',
      );
      console.log('|---|---|---|---|---|---|');
      for (const [setup, figures] of rounds) {
        const m = (pick: (f: Figures) => number) => median(figures.map(pick));
        const pgMs = figures[0]?.postgresCpuMsPerMsg === null ? '-' : fixed(m((f) => f.postgresCpuMsPerMsg ?? 0));
        const conns =
          figures[0]?.peakConnections === null ? '-' : String(Math.max(...figures.map((f) => f.peakConnections ?? 0)));
        console.log(
          `| ${setup} | ${fixed(
            m((f) => f.msgPerSec),
            0,
          )} | ${fixed(
            m((f) => f.p50),
            1,
          )} / ${fixed(
            m((f) => f.p95),
            1,
          )} | ${fixed(m((f) => f.gatewayCpuMsPerMsg))} | ${pgMs} | ${conns} |`,
        );
      }
    }
  } finally {
    await server.stop();
    await model.close();
  }
}
