// The bare Telegram baseline, as its own process: grammy's webhook echo bot on Fastify (grammy's
// documented `webhookCallback(bot, 'fastify')`), asking the model once per message and replying
// with its answer. Settings from the environment:
//   BENCH_TELEGRAM_TOKEN, BENCH_TELEGRAM_API_ROOT, BENCH_TELEGRAM_BOT (the getMe JSON, so no getMe
//   call), BENCH_WEBHOOK_PATH, BENCH_WEBHOOK_SECRET, BENCH_MODEL_URL (…/v1), and optionally
//   BENCH_WEBHOOK_TIMEOUT_MS (grammy's webhook timeout; its default, 10 s, when unset).
// Prints {"ready":true,"port":N} once it listens on 127.0.0.1.
import Fastify from 'fastify';
import { Bot, webhookCallback } from 'grammy';
import type { UserFromGetMe } from 'grammy/types';
import { announceReady, askModel, exitOnSignal, setting } from './model.js';

const modelUrl = setting('BENCH_MODEL_URL');
const bot = new Bot(setting('BENCH_TELEGRAM_TOKEN'), {
  client: { apiRoot: setting('BENCH_TELEGRAM_API_ROOT') },
  botInfo: JSON.parse(setting('BENCH_TELEGRAM_BOT')) as UserFromGetMe,
});
bot.on('message:text', async (ctx) => {
  await ctx.reply(await askModel(modelUrl, ctx.message.text));
});
bot.catch((error) => {
  process.stderr.write(`bare telegram echo: ${String(error.error)}\n`);
});
const app = Fastify({ logger: false });
app.post(
  setting('BENCH_WEBHOOK_PATH'),
  webhookCallback(bot, 'fastify', {
    secretToken: setting('BENCH_WEBHOOK_SECRET'),
    ...(process.env.BENCH_WEBHOOK_TIMEOUT_MS
      ? { timeoutMilliseconds: Number(process.env.BENCH_WEBHOOK_TIMEOUT_MS) }
      : {}),
  }),
);
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
announceReady({ port: typeof address === 'object' && address !== null ? address.port : 0 });
exitOnSignal(() => app.close());
