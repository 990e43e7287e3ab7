// The footprint of a real `hermes gateway run` with three platforms (Telegram, Discord and Slack,
// each against its fake), 20 plugins and 10 gateway hooks: the time from spawn to a healthy
// /health and to every platform connected, the gateway's CPU time by each, the modules it has
// loaded by each (counted in a start of its own), its idle RSS and what that is made of, and its
// RSS once it has answered one message (which starts the gateway hooks' worker thread). Idle RSS
// is read 3, 30 and 60 s after every platform connected. The bin is executed as the `hermes`
// command runs it (its first two lines' settings apply: launch-settings.ts); BENCH_HERMES_BIN: another
// build's bin/hermes.js, executed the same way (its own settings apply), to compare builds.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { PlatformDriver } from '../contract/driver.js';
import { discordDriver } from '../contract/drivers/discord.js';
import { slackSocketDriver } from '../contract/drivers/slack.js';
import { telegramDriver } from '../contract/drivers/telegram.js';
import { type FakeOpenAI, startFakeOpenAI } from '../fakes/openai-server.js';
import { HERMES_BIN, trustHome } from '../helpers/run-hermes.js';
import { binEnv } from './hermes-process.js';
import { type ModuleCount, moduleCounter } from './module-count.js';
import { smokeOr } from './smoke.js';

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

/**
 * What a process's RSS is made of, MB (`/proc/<pid>/status` and `smaps`): anonymous (V8's heaps,
 * malloc's arenas, thread stacks) and file-backed (the `node` executable's pages, shared with every
 * node process, and the shared libraries), and its thread count (one more while the gateway hooks'
 * worker runs).
 */
export function rssBreakdown(pid: number | undefined): string {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const mb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
  let exe = 0;
  let mallocMain = 0;
  let inExe = false;
  let inHeap = false;
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const mapping = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (mapping) {
      const name = mapping[1] ?? '';
      inExe = name !== '' && name === process.execPath;
      inHeap = name === '[heap]';
      continue;
    }
    const rss = /^Rss:\s+(\d+)/.exec(line);
    if (rss && inExe) exe += Number(rss[1]) / 1024;
    if (rss && inHeap) mallocMain += Number(rss[1]) / 1024;
  }
  return (
    `anonymous ${mb('RssAnon').toFixed(1)} MB (of which malloc's main arena ${mallocMain.toFixed(1)}), ` +
    `file-backed ${mb('RssFile').toFixed(1)} MB (of which the node executable ${exe.toFixed(1)}), ` +
    `${/Threads:\s+(\d+)/.exec(status)?.[1] ?? '?'} threads`
  );
}

/**
 * `hermes gateway run` (the bin executed, as the `hermes` command, its first two lines' settings applied;
 * `execArgv`, node options allowed in NODE_OPTIONS, through NODE_OPTIONS) with `env`; resolves
 * once it says where it listens.
 */
async function startGateway(
  execArgv: readonly string[],
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string; spawnedAt: number }> {
  const spawnedAt = performance.now();
  const options = execArgv.length > 0 ? { NODE_OPTIONS: execArgv.join(' ') } : {};
  const child = spawn(process.env.BENCH_HERMES_BIN || HERMES_BIN, ['gateway', 'run'], {
    env: { ...process.env, ...env, ...binEnv(), ...options },
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
  return { child, url, spawnedAt };
}

/** Polls /health until it says `ok` (every platform connected); `onHealthy` at its first 200. */
async function untilOk(url: string, onHealthy: () => void): Promise<void> {
  let healthy = false;
  for (;;) {
    const res = await fetch(`${url}/health`);
    const health = (await res.json()) as { status: string };
    if (res.status === 200 && !healthy) {
      healthy = true;
      onHealthy();
    }
    if (health.status === 'ok') return;
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function stopGateway(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/**
 * The same gateway once it has answered one message: the 10 hooks' `agent:end` starts their
 * worker thread (until then none runs); its RSS once idle again for SETTLED_MS.
 */
async function afterOneMessage(driver: PlatformDriver | undefined, pid: number | undefined, rssMb: () => number) {
  if (!driver) return;
  const threads = () => Number(/Threads:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  const before = threads();
  const sent = driver.sent().length;
  await driver.dm(driver.user(0), 'hello');
  const until = Date.now() + 20_000;
  while ((driver.sent().length === sent || threads() <= before) && Date.now() < until)
    await new Promise((r) => setTimeout(r, 20));
  const started = threads() > before ? 'started' : 'NOT started';
  await new Promise((r) => setTimeout(r, SETTLED_MS));
  console.log(
    `  after one message (the hooks' worker thread ${started}): RSS ${rssMb().toFixed(1)} MB ${SETTLED_MS / 1000} s after it; ${rssBreakdown(pid)}`,
  );
}

/** When the footprint reads the idle gateway's RSS, ms after every platform connected (BENCH_SMOKE=1: at once). */
const SOON_MS = smokeOr(3_000, 200);
const SETTLED_MS = smokeOr(30_000, 400);
/**
 * And once more: V8's memory reducer runs its first idle GC between about 17 and 35 s after start
 * here (8 s after the last start-up mark-compact, 8 s more each time the process was still
 * allocating), so the 30 s reading falls before or after it from run to run; by 60 s it has run.
 */
const LATER_MS = smokeOr(60_000, 600);

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
      const { child, url, spawnedAt } = await startGateway([], env);
      // healthy: /health answers 200 (the server listens, the store is open and recovered, plugins
      // and hooks are loaded); `ok`: every platform has connected as well
      let healthy = 0;
      let healthyCpu = 0;
      await untilOk(url, () => {
        healthy = performance.now() - spawnedAt;
        healthyCpu = cpuMs(child.pid);
      });
      const ready = performance.now() - spawnedAt;
      const readyCpu = cpuMs(child.pid);
      const rssMb = () =>
        Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
      await new Promise((r) => setTimeout(r, SOON_MS));
      const rssSoon = rssMb();
      // V8's memory reducer shrinks the young generation that start-up grew once the process has
      // been idle for a while (15-30 s here): the RSS an idle gateway settles at
      await new Promise((r) => setTimeout(r, SETTLED_MS - SOON_MS));
      const rssSettled = rssMb();
      const settledParts = rssBreakdown(child.pid);
      await new Promise((r) => setTimeout(r, LATER_MS - SETTLED_MS));
      const rssLater = rssMb();
      const laterParts = rssBreakdown(child.pid);
      console.log(
        `gateway footprint, ${label}: 3 platforms + 20 plugins + 10 gateway hooks, healthy ${healthy.toFixed(0)} ms after spawn ` +
          `(target <= 1 s), every platform connected (ok) ${ready.toFixed(0)} ms after spawn; its CPU time ` +
          `${healthyCpu} ms by healthy, ${readyCpu} ms by ok; idle RSS ${rssSoon.toFixed(1)} MB ${SOON_MS / 1000} s after, ` +
          `${rssSettled.toFixed(1)} MB ${SETTLED_MS / 1000} s after, ${rssLater.toFixed(1)} MB ${LATER_MS / 1000} s after (target <= 100 MB)`,
      );
      console.log(`  ${startupReport(logFile, logFrom)}`);
      console.log(`  idle RSS ${SETTLED_MS / 1000} s after: ${settledParts}`);
      console.log(`  idle RSS ${LATER_MS / 1000} s after: ${laterParts}`);
      if (label === 'next start') await afterOneMessage(drivers[0], child.pid, rssMb);
      await stopGateway(child);
    }
    // a third start, not timed: the modules loaded by healthy and once every platform has started
    const counter = moduleCounter(home);
    const counted = await startGateway(counter.execArgv, env);
    await untilOk(counted.url, () => {});
    // the line saying the platforms have started follows `ok` closely
    const until = Date.now() + 10_000;
    while (counter.count().started === null && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    const { healthy, started } = counter.count();
    await stopGateway(counted.child);
    const said = (count: ModuleCount | null) => (count ? `${count.es} ES + ${count.cjs} CommonJS` : '?');
    console.log(
      `  modules loaded (a third start, counted): ${said(healthy)} by healthy, ${said(started)} once every platform has started`,
    );
  } finally {
    for (const d of drivers) await d.close();
    await openai.close();
    rmSync(home, { recursive: true, force: true });
  }
}
