// The bare Telegram baseline, as its own process: grammy's webhook bot on Node's own HTTP server
// (`http.createServer(webhookCallback(bot, 'http'))`, grammy's adapter for it, no web framework),
// replying to each message with the model's answer (or, as the plain echo bot, a fixed text; see
// model.ts). Settings from the environment:
//   BENCH_TELEGRAM_TOKEN, BENCH_TELEGRAM_API_ROOT, BENCH_TELEGRAM_BOT (the getMe JSON, so no getMe
//   call), BENCH_WEBHOOK_SECRET, BENCH_MODEL_URL (…/v1), and optionally BENCH_WEBHOOK_TIMEOUT_MS
//   (grammy's webhook timeout; its default, 10 s, when unset).
// Prints {"ready":true,"port":N} once it listens on 127.0.0.1 (it serves the webhook on any path).
import { createServer } from 'node:http';
import { Bot, webhookCallback } from 'grammy';
import type { UserFromGetMe } from 'grammy/types';
import { announceReady, answerer, exitOnSignal, setting } from './model.js';

const ask = await answerer();
const bot = new Bot(setting('BENCH_TELEGRAM_TOKEN'), {
  client: { apiRoot: setting('BENCH_TELEGRAM_API_ROOT') },
  botInfo: JSON.parse(setting('BENCH_TELEGRAM_BOT')) as UserFromGetMe,
});
bot.on('message:text', async (ctx) => {
  await ctx.reply(await ask(String(ctx.chat.id), ctx.message.text));
});
bot.catch((error) => {
  process.stderr.write(`bare telegram bot: ${String(error.error)}\n`);
});
const server = createServer(
  webhookCallback(bot, 'http', {
    secretToken: setting('BENCH_WEBHOOK_SECRET'),
    ...(process.env.BENCH_WEBHOOK_TIMEOUT_MS
      ? { timeoutMilliseconds: Number(process.env.BENCH_WEBHOOK_TIMEOUT_MS) }
      : {}),
  }),
);
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const address = server.address();
announceReady({ port: typeof address === 'object' && address !== null ? address.port : 0 });
exitOnSignal(
  () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
);
