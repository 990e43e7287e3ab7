// Profiles `hermes gateway run` (the built CLI, in its own process) under load from this process:
//   npx tsc -b && node --import tsx test/bench/profile-gateway.ts [CHATS] [MESSAGES] [ROUNDS]
// The fake Telegram Bot API and the load run here; the fake model runs in a process of its own
// (test/bench/model-process.ts); the gateway runs with `node --cpu-prof` and its own HERMES_HOME
// (Telegram in webhook mode, config defaults elsewhere, `gateway.max_concurrent_runs` = CHATS).
// Each round: a warm-up (WARMUP messages, default 1,000), then MESSAGES messages over CHATS chats in a closed loop
// (a new chat every 10 messages, as the pipeline bench does). CPU per message comes from the
// gateway process's own CPU time (/proc/<pid>/stat, utime + stime) over the measured messages only.
// After the last round the gateway gets SIGTERM and writes its profile; the samples of the measured
// window of the last round are cut out (PROFILE_OUT, default /tmp/hermes-gateway.cpuprofile),
// summarized by test/bench/profile-summary.ts (PROFILE_TOP lines, default 25) and broken down by
// category ("Where the time goes" in docs/performance.md; profile-categories.ts), bundle frames by the module
// esbuild joined there (bundle-sources.ts). PROFILE=0 runs without the profiler.
// TURNS_PER_CHAT=N moves each slot to a new chat every N messages (default 10; 0: never: each slot keeps
// one chat from the warm-up to the last round, which keeps growing).
// HERMES_PROFILE_BIN=path/to/bin/hermes.js profiles another build (a before/after comparison).
// HEAP_SAMPLE_OUT=FILE samples the gateway's allocations (heap-sampler.cjs, collected objects included) over
// the last round's measured messages into FILE (.heapprofile) and prints the sampled bytes per message.
// Latency is from the webhook POST to the answer's sendMessage at the fake Bot API.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { startFakeTelegram } from '../fakes/telegram-server.js';
import { HERMES_BIN } from '../helpers/run-hermes.js';
import { startModelProcess } from './model-process.js';
import { percentile, runLoad, watchReplies, webhookClient } from './pipeline-load.js';
import { categorize, categoryLines } from './profile-categories.js';
import type { ProfileNode } from './profile-summary.js';

const chats = Number(process.argv[2] ?? 64);
const messages = Number(process.argv[3] ?? 4000);
const rounds = Number(process.argv[4] ?? 3);
const warmup = Number(process.env.WARMUP ?? 1000);
const profiling = process.env.PROFILE !== '0';
const turnsPerChat = Number(process.env.TURNS_PER_CHAT ?? 10);
const out = process.env.PROFILE_OUT ?? '/tmp/hermes-gateway.cpuprofile';
const TOKEN = '424242:BENCH-profile-token';
const SECRET = 'bench-profile-secret';
const PATH = '/telegram/webhook';
const ANSWER = 'echo';
const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim() || 100);

/** utime + stime of a process in ms, from /proc/<pid>/stat (fields 14 and 15). */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
}

/** CLOCK_MONOTONIC in µs: the clock of V8's profile timestamps on Linux. */
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

const fake = await startFakeTelegram({ token: TOKEN, longPollCapMs: 50 });
const model = await startModelProcess(ANSWER);
const home = mkdtempSync(join(tmpdir(), 'hermes-profile-'));
const profDir = join(home, 'profile');
mkdirSync(profDir);
writeFileSync(
  join(home, 'config.yaml'),
  stringify({
    model: { default: 'fake-model', base_url: model.url },
    // a user's turns a minute (default 20) would stop a long chat sent at bench speed
    access: { tiers: { user: { limits: { turns_per_minute: 1_000_000 } } } },
    gateway: {
      host: '127.0.0.1',
      port: 0,
      max_concurrent_runs: Math.max(8, chats),
      platforms: {
        telegram: { mode: 'webhook', webhook_url: `https://bot.example.invalid${PATH}`, webhook_secret: SECRET },
      },
    },
  }),
);
const env: Record<string, string> = {};
for (const [k, v] of Object.entries(process.env)) {
  if (v !== undefined && !/^(OPENAI_|HERMES_|TELEGRAM_|DISCORD_|SLACK_|API_SERVER_KEY|NODE_OPTIONS)/.test(k))
    env[k] = v;
}
Object.assign(env, {
  HERMES_HOME: home,
  // the token lock of this gateway only (the default lock directory is shared by every gateway of the user)
  HERMES_LOCK_DIR: join(home, 'locks'),
  TELEGRAM_BOT_TOKEN: TOKEN,
  TELEGRAM_API_ROOT: fake.apiRoot,
  TELEGRAM_ALLOWED_USERS: '*',
});
const heapOut = process.env.HEAP_SAMPLE_OUT;
if (heapOut) rmSync(heapOut, { force: true });
const execArgv = [
  ...(profiling ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`, '--cpu-prof-interval=200'] : []),
  ...(heapOut ? ['--require', fileURLToPath(new URL('./heap-sampler.cjs', import.meta.url))] : []),
];
const bin = process.env.HERMES_PROFILE_BIN ?? HERMES_BIN;
const child = spawn(process.execPath, [...execArgv, bin, 'gateway', 'run'], {
  env,
  stdio: ['ignore', 'ignore', 'pipe'],
});
const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
// a failed run never leaves the gateway behind
process.on('exit', () => child.kill('SIGKILL'));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
let stderr = '';
const port = await new Promise<number>((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error(`gateway did not start: ${stderr}`)), 30_000);
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
    const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(stderr);
    if (m?.[1]) {
      clearTimeout(timer);
      resolve(Number(m[1]));
    }
  });
  void exited.then((code) => reject(new Error(`gateway exited ${code}: ${stderr}`)));
});
const pid = child.pid ?? 0;
// the webhook route answers once the Telegram platform is connected
for (const deadline = Date.now() + 15_000; ; ) {
  const health = (await (await fetch(`http://127.0.0.1:${port}/health`)).json()) as {
    platforms?: Record<string, { state?: string }>;
  };
  if (health.platforms?.telegram?.state === 'connected') break;
  if (Date.now() > deadline) throw new Error(`telegram not connected: ${JSON.stringify(health)}`);
  await new Promise((resolve) => setTimeout(resolve, 20));
}

const watch = watchReplies(fake.sent);
const target = { name: 'hermes', port, path: PATH, secret: SECRET };
let nextChat = 1_000_001;
// TURNS_PER_CHAT=0: the same chats from the warm-up to the last round (each keeps growing)
const longChats = Array.from({ length: chats }, (_, i) => 900_001 + i);
const run = async (n: number) => {
  const client = webhookClient(target, chats);
  const result = await runLoad(client, watch, {
    chats: turnsPerChat > 0 ? Array.from({ length: chats }, () => nextChat++) : longChats,
    turnsPerChat: turnsPerChat > 0 ? turnsPerChat : Number.POSITIVE_INFINITY,
    newChat: () => nextChat++,
    messages: n,
    capMs: 300_000,
    replyTimeoutMs: 20_000,
    update: (chatId, text) => fake.webhookUpdate({ chatId, userId: chatId, text }),
    expect: (_sent, reply) => reply === ANSWER,
  });
  client.close();
  (fake.calls as unknown[]).length = 0;
  (fake.sent as unknown[]).length = 0;
  return result;
};

/** lines in the gateway's log file so far */
const logLines = () => {
  try {
    return readFileSync(join(home, 'logs', 'gateway.log'), 'utf8').split('\n').length - 1;
  } catch {
    return 0;
  }
};
const perMessage: number[] = [];
let window = { fromUs: 0, toUs: 0 };
for (let round = 1; round <= rounds; round++) {
  await run(warmup);
  await model.takeRequestCount();
  const linesBefore = logLines();
  const sampleHeap = heapOut !== undefined && round === rounds;
  if (sampleHeap) child.kill('SIGWINCH');
  const before = cpuMs(pid);
  const fromUs = monotonicUs();
  const r = await run(messages);
  const toUs = monotonicUs();
  const used = cpuMs(pid) - before;
  if (sampleHeap) child.kill('SIGWINCH');
  const requests = await model.takeRequestCount();
  const lines = logLines() - linesBefore;
  window = { fromUs, toUs };
  perMessage.push(used / r.count);
  if (sampleHeap && heapOut) console.log(await heapPerMessage(heapOut, r.count));
  console.log(
    `round ${round}: ${chats} chats, ${r.count} messages: ${((r.count / r.elapsedMs) * 1000).toFixed(0)} msg/s p50 ${percentile(r.latenciesMs, 50).toFixed(2)} ms p99 ${percentile(r.latenciesMs, 99).toFixed(2)} ms; gateway CPU ${used.toFixed(0)} ms = ${(used / r.count).toFixed(3)} ms/msg; model requests/msg ${(requests / r.count).toFixed(2)}, log lines/msg ${(lines / r.count).toFixed(2)}`,
  );
}
const sorted = [...perMessage].sort((a, b) => a - b);
console.log(
  `gateway CPU per message, median of ${rounds}: ${sorted[Math.floor(sorted.length / 2)]?.toFixed(3)} ms (${sorted.map((v) => v.toFixed(3)).join(', ')})`,
);
watch.restore();
child.kill('SIGTERM');
const code = await exited;
if (code !== 0) console.log(`gateway exited ${code}: ${stderr.slice(-2000)}`);
if (profiling) {
  const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no profile in ${profDir}`);
  writeFileSync(out, JSON.stringify(trim(JSON.parse(readFileSync(join(profDir, file), 'utf8')), window)));
  console.log(`profile of the last round's measured messages: ${out}`);
  const summary = fileURLToPath(new URL('./profile-summary.ts', import.meta.url));
  spawnSync(process.execPath, ['--import', 'tsx', summary, out, process.env.PROFILE_TOP ?? '25'], { stdio: 'inherit' });
  console.log(categoryLines(categorize(JSON.parse(readFileSync(out, 'utf8')))).join('\n'));
}
rmSync(home, { recursive: true, force: true });
await fake.close();
await model.close();

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** The profile's samples taken within `window` (monotonic µs), as a profile of its own. */
function trim(profile: Profile, w: { fromUs: number; toUs: number }): Profile {
  const samples: number[] = [];
  const timeDeltas: number[] = [];
  let at = profile.startTime;
  let last = w.fromUs;
  for (const [i, id] of profile.samples.entries()) {
    at += profile.timeDeltas[i] ?? 0;
    if (at < w.fromUs || at > w.toUs) continue;
    samples.push(id);
    timeDeltas.push(at - last);
    last = at;
  }
  return { ...profile, startTime: w.fromUs, endTime: w.toUs, samples, timeDeltas };
}

/** The sampled allocation of a heap profile the sampler wrote, per message. */
async function heapPerMessage(file: string, count: number): Promise<string> {
  for (const deadline = Date.now() + 5_000; Date.now() < deadline; ) {
    try {
      // selfSize: V8's estimate of the bytes allocated there (the samples scaled by the interval)
      interface HeapNode {
        selfSize: number;
        children: HeapNode[];
      }
      const sum = (n: HeapNode): number => n.children.reduce((a, c) => a + sum(c), n.selfSize);
      const bytes = sum((JSON.parse(readFileSync(file, 'utf8')) as { head: HeapNode }).head);
      return `allocated (sampled) ${(bytes / 1e6).toFixed(1)} MB = ${(bytes / count / 1024).toFixed(1)} KB/msg: ${file}`;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return `no heap profile in ${file}`;
}
