// Runs only the Hermes side of the Telegram pipeline bench, with a CPU profile of the measured run:
//   PROFILE_OUT=/tmp/t.cpuprofile node --import tsx test/bench/profile-pipeline.ts [CHATS] [MESSAGES]
// (the profile covers the measured messages only, not start-up or warm-up); HEAP_OUT=FILE.heapprofile
// samples allocations (collected ones included) the same way
// Prints msg/s and latency percentiles; summarize the profile with test/bench/profile-summary.ts.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { ModelClient } from '@hermes/agent';
import { Gateway } from '@hermes/gateway';
import { startFakeTelegram } from '../fakes/telegram-server.js';
import { startModelProcess } from './model-process.js';
import { percentile, runLoad, watchReplies, webhookClient } from './pipeline-load.js';
import { HERMES_ANSWER, startHermes } from './pipeline-systems.js';

const chats = Number(process.argv[2] ?? 64);
const messages = Number(process.argv[3] ?? 6000);
// TRACE=1: per-stage latency of each message (the stages' starts and ends, as each wrapped call sees them)
const marks: Record<string, number[]> = {};
const markAt = (name: string, at: number) => {
  const list = marks[name] ?? [];
  list.push(at);
  marks[name] = list;
};
const mark = (name: string) => markAt(name, performance.now());
if (process.env.TRACE) {
  const wrap = <T extends object>(proto: T, key: string, before: string, after: string) => {
    const target = proto as Record<string, (...args: unknown[]) => Promise<unknown>>;
    const original = target[key];
    if (original === undefined) throw new Error(`no ${key}`);
    target[key] = async function (this: unknown, ...args: unknown[]) {
      mark(before);
      try {
        return await original.apply(this, args);
      } finally {
        mark(after);
      }
    };
  };
  wrap(Gateway.prototype, 'accept', 'accept', 'accepted');
  wrap(ModelClient.prototype, 'complete', 'model', 'modelDone');
}
const fake = await startFakeTelegram({ token: '424242:BENCH-token', longPollCapMs: 50 });
const model = await startModelProcess(HERMES_ANSWER);
const watched = watchReplies(fake.sent);
const watch: typeof watched = {
  next: (chatId, timeoutMs) =>
    watched.next(chatId, timeoutMs).then((reply) => {
      markAt('recorded', reply.at);
      return reply;
    }),
  get unexpected() {
    return watched.unexpected;
  },
  restore: () => watched.restore(),
};
const hermes = await startHermes(fake, model);
let nextChat = 1_000_001;
const run = async (n: number) => {
  const client = webhookClient(hermes.target, chats);
  const ids = Array.from({ length: chats }, () => nextChat++);
  const result = await runLoad(client, watch, {
    chats: ids,
    turnsPerChat: 10,
    newChat: () => nextChat++,
    messages: n,
    capMs: 120_000,
    replyTimeoutMs: 10_000,
    update: (chatId, text) => {
      const update = fake.webhookUpdate({ chatId, userId: chatId, text });
      mark('post');
      return update;
    },
    expect: hermes.expect,
  });
  client.close();
  (fake.calls as unknown[]).length = 0;
  (fake.sent as unknown[]).length = 0;
  await model.takeRequestCount();
  return result;
};
await run(Math.min(2000, messages));
for (const k of Object.keys(marks)) delete marks[k];
const out = process.env.PROFILE_OUT;
const session = new Session();
if (out) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
}
const heapOut = process.env.HEAP_OUT;
if (heapOut) {
  if (!out) session.connect();
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
}
const cpu = process.cpuUsage();
const r = await run(messages);
const used = process.cpuUsage(cpu);
if (out) {
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(out, JSON.stringify(profile));
}
if (heapOut) {
  const { profile } = await session.post('HeapProfiler.stopSampling');
  writeFileSync(heapOut, JSON.stringify(profile));
}
if (out || heapOut) session.disconnect();
console.log(
  `hermes ${chats} chats: ${((r.count / r.elapsedMs) * 1000).toFixed(0)} msg/s p50 ${percentile(r.latenciesMs, 50).toFixed(2)} ms p99 ${percentile(r.latenciesMs, 99).toFixed(2)} ms; CPU/msg ${((used.user + used.system) / r.count / 1000).toFixed(2)} ms`,
);
if (process.env.TRACE) {
  // stage durations per message, from consecutive marks (1 chat: the messages do not overlap)
  const stages: [string, string, string][] = [
    ['post->accept', 'post', 'accept'],
    ['accept commit', 'accept', 'accepted'],
    ['accepted->model', 'accepted', 'model'],
    ['model', 'model', 'modelDone'],
    ['model->recorded', 'modelDone', 'recorded'],
  ];
  for (const [label, from, to] of stages) {
    const a = marks[from] ?? [];
    const b = marks[to] ?? [];
    const d = Float64Array.from(a.slice(0, Math.min(a.length, b.length)).map((t, i) => (b[i] ?? t) - t)).sort();
    console.log(
      `${label.padEnd(16)} n ${d.length} p50 ${percentile(d, 50).toFixed(3)} p90 ${percentile(d, 90).toFixed(3)} p99 ${percentile(d, 99).toFixed(3)} ms`,
    );
  }
}
await hermes.close();
watch.restore();
await fake.close();
await model.close();
