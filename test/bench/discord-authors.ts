// RSS of a Hermes gateway on Discord as more and more people write in a server channel: the built
// gateway (hermes-process.ts; BENCH_HERMES_BIN picks another build's bin) on the fake Discord, one
// message from each of BENCH_AUTHORS (default 5,000) distinct users in one guild text channel, each
// mentioning the bot and answered by the instant fake model, at most 64 unanswered at a time. Prints
// the gateway's RSS once connected (3 s later) and 5 s after the last answer, and its V8 heap in
// use right after a full garbage collection at both points (and the RSS after the second) (asked through the inspector: the gateway runs
// with --inspect on a loopback port, BENCH_INSPECT_PORT, default 9341).
// Run: node --import tsx test/bench/discord-authors.ts [bin ...]  (each bin in turn, BENCH_ROUNDS times)
import { readFileSync } from 'node:fs';
import { WebSocket } from 'ws';
import { startFakeDiscord } from '../fakes/discord-server.js';
import { HERMES_BIN } from '../helpers/run-hermes.js';
import { startHermesProcess } from './hermes-process.js';
import { startModelProcess } from './model-process.js';

const TOKEN = 'MTc3NzAwMTc3NzAwMTc3NzAwMQ.GbEnCh.BENCH-discord-token-0123456789abcdefghij';
const AUTHORS = Number(process.env.BENCH_AUTHORS ?? 5_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const WINDOW = 64;
const FIRST_USER_ID = 588_000_000_000_000_001n;

const rssMb = (pid: number): number =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const INSPECT_PORT = Number(process.env.BENCH_INSPECT_PORT ?? 9341);

/** A full GC in the gateway through its inspector, then V8's heap in use (MB). */
async function heapAfterGc(): Promise<number> {
  const targets = (await (await fetch(`http://127.0.0.1:${INSPECT_PORT}/json/list`)).json()) as {
    webSocketDebuggerUrl: string;
  }[];
  const socket = new WebSocket(targets[0]?.webSocketDebuggerUrl ?? '');
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  let id = 0;
  const call = (method: string) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const mine = ++id;
      const onMessage = (data: Buffer) => {
        const reply = JSON.parse(String(data)) as { id?: number; result?: Record<string, unknown> };
        if (reply.id !== mine) return;
        socket.off('message', onMessage);
        resolve(reply.result ?? {});
      };
      socket.on('message', onMessage);
      socket.send(JSON.stringify({ id: mine, method }));
    });
  await call('HeapProfiler.collectGarbage');
  await call('HeapProfiler.collectGarbage');
  const usage = await call('Runtime.getHeapUsage');
  socket.close();
  return Number(usage.usedSize) / 1024 / 1024;
}

const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

interface Figures {
  idle: number;
  idleHeap: number;
  after: number;
  heap: number;
  rssAfterGc: number;
  seconds: number;
}

async function run(bin: string): Promise<Figures> {
  process.env.BENCH_HERMES_BIN = bin;
  const model = await startModelProcess('ok');
  const fake = await startFakeDiscord({ token: TOKEN });
  const gateway = await startHermesProcess({
    platform: 'discord',
    settings: { api_base: fake.apiBase, global_requests_per_second: 100_000 },
    env: {
      DISCORD_BOT_TOKEN: TOKEN,
      DISCORD_ALLOWED_USERS: '*',
      NODE_OPTIONS: `--inspect=127.0.0.1:${INSPECT_PORT}`,
    },
    modelUrl: model.url,
    maxConcurrentRuns: WINDOW,
  });
  try {
    await pause(3_000);
    const idle = rssMb(gateway.pid);
    const idleHeap = await heapAfterGc();
    const channelId = fake.textChannelIds[0] ?? '';
    const started = performance.now();
    let injected = 0;
    while (injected < AUTHORS) {
      await fake.until(() => injected - fake.sent.length < WINDOW, 60_000, 'answers');
      const user = { id: String(FIRST_USER_ID + BigInt(injected)), name: `author${injected}` };
      fake.guildMessage({ user, content: `hello ${injected}`, channelId, mention: true });
      injected += 1;
    }
    await fake.until(() => fake.sent.length >= AUTHORS, 60_000, 'every answer');
    const seconds = (performance.now() - started) / 1000;
    await pause(5_000);
    const after = rssMb(gateway.pid);
    const heap = await heapAfterGc();
    return { idle, idleHeap, after, heap, rssAfterGc: rssMb(gateway.pid), seconds };
  } finally {
    await gateway.stop();
    await fake.close();
    await model.close();
  }
}

const bins = process.argv.slice(2);
if (bins.length === 0) bins.push(HERMES_BIN);
for (let round = 0; round < ROUNDS; round++) {
  for (const bin of bins) {
    const before = load();
    const f = await run(bin);
    console.log(
      `${bin}: RSS connected ${f.idle.toFixed(1)} MB, after ${AUTHORS} authors ${f.after.toFixed(1)} MB ` +
        `(+${(f.after - f.idle).toFixed(1)}); after a full GC: heap ${f.idleHeap.toFixed(1)} -> ${f.heap.toFixed(1)} MB ` +
        `(${(((f.heap - f.idleHeap) * 1024 * 1024) / AUTHORS).toFixed(0)} B an author), ` +
        `RSS ${f.rssAfterGc.toFixed(1)} MB; ${f.seconds.toFixed(1)} s, load ${before} -> ${load()}`,
    );
  }
}
