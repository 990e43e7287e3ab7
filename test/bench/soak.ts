// Soak and scale: 10,000 sessions through one in-process gateway (Telegram webhook in, reply out,
// instant fake model in its own process): throughput, latency, event-loop delay, memory per
// session; the cost of a turn as a chat's transcript grows, with the query plans of the hot
// statements. The footprint of a real `hermes gateway run` (start-up, modules, idle RSS) is in
// footprint.ts, run by this module's `runFootprint`.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { telegramFactory } from '../../plugins/platforms/telegram/index.js';
import { startFakeTelegram } from '../fakes/telegram-server.js';
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

// the footprint of `gateway run` (start-up time, modules, idle RSS): footprint.ts
export { runFootprint } from './footprint.js';
