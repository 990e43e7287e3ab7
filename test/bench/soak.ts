// Soak and scale: 10,000 sessions through one in-process gateway (Telegram webhook in, reply out,
// instant fake model in its own process): throughput, latency, event-loop delay, memory per
// session; the cost of a turn as a chat's transcript grows, with the query plans of the hot
// statements; and the footprint of a real `hermes gateway run` with three platforms, 20 plugins
// and 10 gateway hooks (start-up time to a healthy /health and to every platform connected, idle RSS).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { stringify } from 'yaml';
import { telegramFactory } from '../../plugins/platforms/telegram/index.js';
import type { PlatformDriver } from '../contract/driver.js';
import { discordDriver } from '../contract/drivers/discord.js';
import { slackSocketDriver } from '../contract/drivers/slack.js';
import { telegramDriver } from '../contract/drivers/telegram.js';
import { type FakeOpenAI, startFakeOpenAI } from '../fakes/openai-server.js';
import { startFakeTelegram } from '../fakes/telegram-server.js';
import { HERMES_BIN, trustHome } from '../helpers/run-hermes.js';
import { startModelProcess } from './model-process.js';
import { percentile, runLoad, watchReplies, webhookClient } from './pipeline-load.js';
import { HERMES_ANSWER, startHermesFor, WEBHOOK_PATH, WEBHOOK_SECRET } from './pipeline-systems.js';
import { smokeOr } from './smoke.js';

const TOKEN = '424242:SOAK-token';
const gc: () => void = (() => {
  setFlagsFromString('--expose-gc');
  const fn: unknown = runInNewContext('typeof gc === "function" ? gc : undefined');
  return typeof fn === 'function' ? () => void fn() : () => {};
})();
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

export interface SoakOptions {
  sessions?: number;
}

/** 10,000 fresh chats (one session each) at 64 at a time (BENCH_SMOKE=1: 300). */
export async function runSoak(options: SoakOptions = {}): Promise<void> {
  const sessions = options.sessions ?? smokeOr(10_000, 300);
  const fake = await startFakeTelegram({ token: TOKEN, longPollCapMs: 50 });
  const model = await startModelProcess(HERMES_ANSWER);
  const watch = watchReplies(fake.sent);
  const env = { TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_API_ROOT: fake.apiRoot, TELEGRAM_ALLOWED_USERS: '*' };
  const hermes = await startHermesFor(
    telegramFactory,
    env,
    { mode: 'webhook', webhook_secret: WEBHOOK_SECRET },
    model.url,
  );
  const client = webhookClient({ name: 'hermes', port: hermes.port, path: WEBHOOK_PATH, secret: WEBHOOK_SECRET }, 64);
  let next = 2_000_001;
  const load = (messages: number) =>
    runLoad(client, watch, {
      chats: Array.from({ length: 64 }, () => next++),
      turnsPerChat: 1,
      newChat: () => next++,
      messages,
      capMs: 600_000,
      replyTimeoutMs: 30_000,
      update: (chatId, text) => fake.webhookUpdate({ chatId, userId: chatId, text }),
      expect: (_sent, reply) => reply === HERMES_ANSWER,
    });
  try {
    await load(smokeOr(500, 64));
    (fake.sent as unknown[]).length = 0;
    (fake.calls as unknown[]).length = 0;
    gc();
    const before = process.memoryUsage();
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const result = await load(sessions);
    delay.disable();
    (fake.sent as unknown[]).length = 0;
    (fake.calls as unknown[]).length = 0;
    await model.takeRequestCount();
    gc();
    const after = process.memoryUsage();
    const lat = result.latenciesMs.sort();
    const perSession = (key: 'heapUsed' | 'rss') => ((after[key] - before[key]) / result.count / 1024).toFixed(2);
    console.log(
      `soak: ${result.count} sessions (one fresh chat each, 64 at a time) in ${(result.elapsedMs / 1000).toFixed(1)} s = ` +
        `${((result.count / result.elapsedMs) * 1000).toFixed(0)} msg/s; latency p50 ${percentile(lat, 50).toFixed(1)} ms ` +
        `p99 ${percentile(lat, 99).toFixed(1)} ms; event-loop delay p50 ${(delay.percentile(50) / 1e6).toFixed(1)} ms ` +
        `p99 ${(delay.percentile(99) / 1e6).toFixed(1)} ms max ${(delay.max / 1e6).toFixed(1)} ms`,
    );
    console.log(
      `  memory after a full GC: heap ${mb(before.heapUsed)} -> ${mb(after.heapUsed)} MB (${perSession('heapUsed')} KB per session), ` +
        `RSS ${mb(before.rss)} -> ${mb(after.rss)} MB (${perSession('rss')} KB per session; fakes and load in the same process) ` +
        '(target <= 5 KB per idle session)',
    );
    await transcriptGrowth(
      hermes,
      fake,
      (chatId, text) => fake.webhookUpdate({ chatId, userId: chatId, text }),
      watch,
      client,
    );
  } finally {
    client.close();
    watch.restore();
    await hermes.close();
    await fake.close();
    await model.close();
  }
}

type Hermes = Awaited<ReturnType<typeof startHermesFor>>;

/** The cost of a turn as the chat's transcript grows (seeded in state.db), and the hot statements' query plans. */
async function transcriptGrowth(
  hermes: Hermes,
  fake: Awaited<ReturnType<typeof startFakeTelegram>>,
  update: (chatId: number, text: string) => unknown,
  watch: ReturnType<typeof watchReplies>,
  client: ReturnType<typeof webhookClient>,
): Promise<void> {
  const figures: string[] = [];
  for (const [i, rows] of smokeOr([0, 1_000, 5_000], [0, 100, 500]).entries()) {
    const chatId = 3_000_001 + i;
    if (rows > 0) {
      const session = hermes.store.sessions.create({
        key: `telegram:${chatId}:dm`,
        platform: 'telegram',
        model: 'fake-model',
      });
      const batch = Array.from({ length: rows }, (_, n) => ({
        role: n % 2 === 0 ? ('user' as const) : ('assistant' as const),
        content: `message ${n} of a long conversation, with some words in it`,
      }));
      hermes.store.transcripts.append(session.id, batch);
    }
    const times: number[] = [];
    for (let turn = 0; turn < smokeOr(21, 3); turn++) {
      const reply = watch.next(chatId, 30_000);
      const started = performance.now();
      await client.post(JSON.stringify(update(chatId, `turn ${turn}`)));
      const got = await reply;
      if (turn > 0) times.push(got.at - started); // the first turn reads the transcript from state.db
    }
    times.sort((a, b) => a - b);
    figures.push(`${rows} rows: p50 ${percentile(Float64Array.from(times), 50).toFixed(1)} ms`);
  }
  (fake.sent as unknown[]).length = 0;
  console.log(
    `transcript growth (turn latency at 1 chat; the model request carries the whole history): ${figures.join('; ')}`,
  );
  const db = hermes.store.db;
  const plans: [string, string, unknown[]][] = [
    [
      'active session by key',
      'SELECT id FROM sessions WHERE session_key = ? AND ended_at IS NULL ORDER BY created_at DESC LIMIT 1',
      ['k'],
    ],
    ['last seq of a transcript', 'SELECT COALESCE(MAX(seq), 0) FROM messages WHERE session_id = ?', ['s']],
    ['a transcript in order', 'SELECT role, content FROM messages WHERE session_id = ? ORDER BY seq', ['s']],
    ['inbox dedupe', 'SELECT id FROM inbox WHERE platform = ? AND message_key = ?', ['telegram', '1']],
    [
      'unfinished inbox rows',
      "SELECT id FROM inbox WHERE status IN ('accepted', 'processing') ORDER BY accepted_at, id",
      [],
    ],
    ['outbox rows of a message', 'SELECT id FROM outbox WHERE inbox_id = ? ORDER BY chunk_index', [1]],
  ];
  for (const [label, sql, args] of plans) {
    const plan = db
      .prepare(`EXPLAIN QUERY PLAN ${sql}`)
      .all(...args)
      .map((r) => (r as { detail: string }).detail)
      .join('; ');
    console.log(`  query plan, ${label}: ${plan}`);
  }
}

/** A trivial TS plugin with one tool and one hook, for the start-up figure. */
const PLUGIN = (n: number) => ({
  'plugin.yaml': `name: p${n}\nversion: 1.0.0\ndescription: start-up bench plugin ${n}\n`,
  'index.ts': `import type { PluginContext } from '@hermes/plugin-sdk';
export function register(ctx: PluginContext) {
  const schema = { name: 'tool_${n}', description: 'noop', parameters: { type: 'object', properties: {} } };
  ctx.registerTool({ name: 'tool_${n}', toolset: 'bench', schema, handler: () => 'ok' });
  ctx.registerHook('post_tool_call', () => {});
}\n`,
});

/**
 * What the gateway logged from byte `from` of its log on: the start-up phases of its "gateway
 * listening" line (ms, in order, from spawn), each platform's connect time, and how many plugins
 * and gateway hooks loaded (a failed one would make the figures look better than they are).
 */
function startupReport(logFile: string, from: number): string {
  const run = readFileSync(logFile)
    .subarray(from)
    .toString('utf8')
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const listening = run.find((l) => l.startupMs !== undefined);
  const phases = Object.entries((listening?.startupMs ?? {}) as Record<string, number>)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  const at = (msg: string) => run.find((l) => l.msg === msg)?.time as number | undefined;
  const connects = ['telegram', 'discord', 'slack']
    .map((p) => {
      const start = at(`${p}: connecting`);
      const end = at(`${p}: connected`);
      return `${p} ${start !== undefined && end !== undefined ? end - start : '?'}`;
    })
    .join(', ');
  const started = run.find((l) => l.connectedMs !== undefined)?.connectedMs;
  const failed = run.filter((l) => typeof l.msg === 'string' && /^plugin \S+ failed/.test(l.msg)).length;
  const hooks = run.find((l) => Array.isArray(l.hooks))?.hooks as unknown[] | undefined;
  return `phases (ms): ${phases}; platforms started at ${started ?? '?'} ms; connect (ms): ${connects}; plugins failed: ${failed}; gateway hooks loaded: ${hooks?.length ?? 0}`;
}

/**
 * CPU time (user + system, ms) a process has used so far, from /proc: on a shared machine less
 * noisy than wall-clock time (the kernel counts it in ticks of 10 ms).
 */
function cpuMs(pid: number | undefined): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  // utime and stime are fields 14 and 15 of stat; 11 and 12 after the ") " split
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** When the footprint reads the idle gateway's RSS, ms after every platform connected (BENCH_SMOKE=1: at once). */
const SOON_MS = smokeOr(3_000, 200);
const SETTLED_MS = smokeOr(30_000, 400);

/** `hermes gateway run` with Telegram, Discord and Slack, 20 plugins and 10 gateway hooks: time to healthy, idle RSS. */
export async function runFootprint(): Promise<void> {
  const drivers: PlatformDriver[] = [telegramDriver('polling'), discordDriver(), slackSocketDriver()];
  const openai: FakeOpenAI = await startFakeOpenAI();
  for (const d of drivers) await d.start();
  const home = mkdtempSync(join(tmpdir(), 'hermes-footprint-'));
  try {
    const platforms: Record<string, unknown> = {};
    const env: Record<string, string> = {
      HERMES_HOME: home,
      HERMES_GATEWAY_PORT: '0',
      HERMES_LOCK_DIR: join(home, 'locks'),
      OPENAI_BASE_URL: openai.url,
      HERMES_INFERENCE_MODEL: 'fake-model',
    };
    for (const d of drivers) {
      platforms[d.platform] = d.settings();
      Object.assign(env, d.env([d.user(0)]));
    }
    const enabled: string[] = [];
    for (let n = 0; n < 20; n++) {
      const dir = join(home, 'plugins', `p${n}`);
      mkdirSync(dir, { recursive: true });
      for (const [file, text] of Object.entries(PLUGIN(n))) writeFileSync(join(dir, file), text);
      enabled.push(`p${n}`);
    }
    for (let n = 0; n < 10; n++) {
      const dir = join(home, 'hooks', `h${n}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'HOOK.yaml'), `name: h${n}\ndescription: bench hook\nevents: [agent:end]\n`);
      writeFileSync(join(dir, 'handler.ts'), 'export function handle() {}\n');
    }
    // hooks_auto_accept: the 10 gateway hooks load without `hermes hooks approve`
    writeFileSync(
      join(home, 'config.yaml'),
      stringify({ plugins: { enabled }, gateway: { platforms }, hooks_auto_accept: true }),
    );
    // the operator's consent for the plugins and for hooks_auto_accept itself (docs/security.md)
    trustHome(home);
    // twice: the first run also fills jiti's transform cache (as the first start after an install does)
    const logFile = join(home, 'logs', 'gateway.log');
    for (const label of ['first start (cold transform cache)', 'next start']) {
      const logFrom = existsSync(logFile) ? statSync(logFile).size : 0;
      const started = performance.now();
      const child = spawn(process.execPath, [HERMES_BIN, 'gateway', 'run'], {
        env: { ...process.env, ...env },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let err = '';
      child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`gateway did not start: ${err}`)), 60_000);
        const poll = setInterval(() => {
          const m = /listening on (http:\/\/\S+)/.exec(err);
          if (m?.[1]) {
            clearInterval(poll);
            clearTimeout(timer);
            resolve(m[1]);
          }
        }, 5);
      });
      // healthy: /health answers 200 (the server listens, the store is open and recovered, plugins
      // and hooks are loaded); `ok`: every platform has connected as well
      let healthy = 0;
      let healthyCpu = 0;
      for (;;) {
        const res = await fetch(`${url}/health`);
        const health = (await res.json()) as { status: string };
        if (res.status === 200 && healthy === 0) {
          healthy = performance.now() - started;
          healthyCpu = cpuMs(child.pid);
        }
        if (health.status === 'ok') break;
        await new Promise((r) => setTimeout(r, 5));
      }
      const ready = performance.now() - started;
      const readyCpu = cpuMs(child.pid);
      const rssMb = () =>
        Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
      await new Promise((r) => setTimeout(r, SOON_MS));
      const rssSoon = rssMb();
      // V8's memory reducer shrinks the young generation that start-up grew once the process has
      // been idle for a while (15-30 s here): the RSS an idle gateway settles at
      await new Promise((r) => setTimeout(r, SETTLED_MS - SOON_MS));
      const rssSettled = rssMb();
      console.log(
        `gateway footprint, ${label}: 3 platforms + 20 plugins + 10 gateway hooks, healthy ${healthy.toFixed(0)} ms after spawn ` +
          `(target <= 1 s), every platform connected (ok) ${ready.toFixed(0)} ms after spawn; its CPU time ` +
          `${healthyCpu} ms by healthy, ${readyCpu} ms by ok; idle RSS ${rssSoon.toFixed(1)} MB ${SOON_MS / 1000} s after, ` +
          `${rssSettled.toFixed(1)} MB ${SETTLED_MS / 1000} s after (target <= 100 MB)`,
      );
      console.log(`  ${startupReport(logFile, logFrom)}`);
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  } finally {
    for (const d of drivers) await d.close();
    await openai.close();
    rmSync(home, { recursive: true, force: true });
  }
}
