// Telegram for the process benches: webhook in (the bench POSTs updates to the system's port),
// sendMessage out on a fake Bot API in the bench process. Bare: test/bench/bare/telegram-echo.ts.
import { type FakeTelegram, type RecordedCall, type SentMessage, startFakeTelegram } from '../fakes/telegram-server.js';
import { bareScript } from './bare-build.js';
import { startHermesProcess } from './hermes-process.js';
import { startOpenClaw } from './openclaw-process.js';
import { watchReplies, webhookClient } from './pipeline-load.js';
import { bareLabel, closeAll, type PlatformRig, plainEcho, type RunningSystem, type StartOptions } from './rig.js';
import { BENCH_SMOKE } from './smoke.js';
import { spawnSystem } from './system-process.js';

const TOKEN = '424242:BENCH-token';
const WEBHOOK_PATH = '/telegram/webhook';
const WEBHOOK_SECRET = 'bench-secret';
/**
 * keep-alive sockets the bench opens to the system, as Telegram does: it delivers a bot's updates
 * over at most `max_connections` connections (setWebhook's setting: 40 by default, 100 at most), so
 * 256 chats share 100 sockets (a webhook POST is answered once the update is stored, not answered).
 */
const MAX_SOCKETS = 100;

/** The `i`-th bench chat id (a private chat; the user id is the chat id). */
export const telegramChatId = (i: number): number => 1_000_001 + i;
/** Hermes's session key of a bench chat (to seed its history). */
export const telegramSessionKey = (chatId: number): string => `telegram:${chatId}:dm`;

async function startSystem(fake: FakeTelegram, options: StartOptions) {
  if (options.kind === 'openclaw') {
    const proc = await startOpenClaw({
      token: fake.token,
      apiRoot: fake.apiRoot,
      webhookPath: WEBHOOK_PATH,
      webhookSecret: WEBHOOK_SECRET,
      modelUrl: options.modelUrl,
    });
    return { label: 'openclaw', proc, port: proc.port };
  }
  if (options.kind !== 'hermes') {
    const proc = await spawnSystem({
      name: bareLabel('bare grammy', options.kind),
      command: process.execPath,
      args: [bareScript('telegram-echo')],
      env: {
        BENCH_TELEGRAM_TOKEN: fake.token,
        BENCH_TELEGRAM_API_ROOT: fake.apiRoot,
        BENCH_TELEGRAM_BOT: JSON.stringify(fake.bot),
        BENCH_WEBHOOK_SECRET: WEBHOOK_SECRET,
        BENCH_MODEL_URL: options.modelUrl,
        // the smoke run (npm test, two files at once on two cores) proves the bench runs: there a
        // loaded machine must not turn grammy's 10 s webhook timeout into a 500
        ...(BENCH_SMOKE ? { BENCH_WEBHOOK_TIMEOUT_MS: '60000' } : {}),
        ...plainEcho(options.kind),
      },
      ready: /\{"ready":true,"port":(\d+)\}/,
    });
    return { label: bareLabel('bare grammy', options.kind), proc, port: Number(proc.readyMatch[1]) };
  }
  const proc = await startHermesProcess({
    platform: 'telegram',
    settings: { api_root: fake.apiRoot, mode: 'webhook', webhook_secret: WEBHOOK_SECRET },
    env: { TELEGRAM_BOT_TOKEN: fake.token, TELEGRAM_ALLOWED_USERS: '*' },
    modelUrl: options.modelUrl,
    maxConcurrentRuns: options.maxConcurrentRuns,
    ...(options.prepare ? { prepare: options.prepare } : {}),
  });
  return { label: 'hermes', proc, port: proc.port };
}

export const telegramRig: PlatformRig<number> = {
  platform: 'telegram',
  apiCalls: 'Bot API calls',
  async start(options): Promise<RunningSystem<number>> {
    const closers: (() => Promise<void> | void)[] = [];
    try {
      const fake = await startFakeTelegram({ token: TOKEN, longPollCapMs: 50 });
      closers.push(() => fake.close());
      const watch = watchReplies(fake.sent);
      closers.push(() => watch.restore());
      const { label, proc, port } = await startSystem(fake, options);
      closers.push(() => proc.stop());
      const client = webhookClient({ name: label, port, path: WEBHOOK_PATH, secret: WEBHOOK_SECRET }, MAX_SOCKETS);
      closers.push(() => client.close());
      let next = 0;
      return {
        kind: options.kind,
        label,
        proc,
        traffic: {
          async send(chatId, text) {
            const status = await client
              .post(JSON.stringify(fake.webhookUpdate({ chatId, userId: chatId, text })))
              .catch((error: unknown) => {
                // which system, and what it said last (a crash, a closed server)
                throw new Error(
                  `${label}: webhook POST for chat ${chatId} failed: ${String(error)}\n${proc.outputTail()}`,
                );
              });
            if (status !== 200) throw new Error(`${label}: webhook POST for chat ${chatId} answered ${status}`);
          },
          next: (chatId, timeoutMs) => watch.next(chatId, timeoutMs),
          newChat: () => telegramChatId(next++),
          describe: (chatId) => `telegram chat ${chatId}`,
        },
        takeApiCalls() {
          const calls = fake.calls.length;
          (fake.calls as RecordedCall[]).length = 0;
          (fake.sent as SentMessage[]).length = 0;
          return calls;
        },
        unexpected: () => watch.unexpected,
        close: () => closeAll(closers),
      };
    } catch (error) {
      await closeAll(closers);
      throw error;
    }
  },
};
