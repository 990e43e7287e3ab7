// Telegram in the chaos run (grammy in the gateway). Long polling: updates stay queued in the fake
// until a later getUpdates offset confirms them. Webhook: each update is POSTed to the gateway's
// webhook route with the secret header, and sent again until the gateway answers 200.
import type { Update } from 'grammy/types';
import { type FakeTelegram, type PushMessageInput, startFakeTelegram } from '../fakes/telegram-server.js';
import type { ChaosPlatform } from './platforms.js';
import { streamAndSpare, users } from './platforms.js';
import { PushDelivery, TELEGRAM_WEBHOOK_POLICY } from './push-delivery.js';

const TELEGRAM_TOKEN = '777002:CHAOS-telegram-token';
const TELEGRAM_GROUP = -100_778;
/** webhook mode: set explicitly, sent as X-Telegram-Bot-Api-Secret-Token */
const WEBHOOK_SECRET = 'chaos-telegram-webhook-secret-4b7e1f';
const WEBHOOK_PATH = '/telegram/webhook';

export type TelegramMode = 'polling' | 'webhook';

export function telegramPlatform(mode: TelegramMode = 'polling'): ChaosPlatform {
  let fake: FakeTelegram | null = null;
  let cursor = 0;
  let uploadCursor = 0;
  let push: PushDelivery | null = null;
  /** offers one message the way the mode delivers it */
  const deliver = (key: number, input: PushMessageInput): void => {
    const tg = need();
    if (mode === 'polling') {
      tg.pushMessage(input);
      return;
    }
    if (!push) throw new Error('telegram webhook: attach() first');
    const update: Update = tg.webhookUpdate(input);
    const body = JSON.stringify(update);
    push.push({
      key,
      path: WEBHOOK_PATH,
      request: () => ({
        headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': WEBHOOK_SECRET },
        body,
      }),
    });
  };
  const need = (): FakeTelegram => {
    if (!fake) throw new Error('telegram: start() first');
    return fake;
  };
  const list = users((i) => String(5_101 + i));
  return {
    name: 'telegram',
    mode,
    ...streamAndSpare(list),
    async start() {
      fake = await startFakeTelegram({ token: TELEGRAM_TOKEN, longPollCapMs: 500 });
    },
    async close() {
      push?.close();
      await fake?.close();
    },
    env: () => ({
      TELEGRAM_BOT_TOKEN: TELEGRAM_TOKEN,
      TELEGRAM_ALLOWED_USERS: list.map((u) => u.id).join(','),
    }),
    settings: () =>
      mode === 'polling'
        ? { api_root: need().apiRoot, poll_timeout_s: 1 }
        : // no webhook_url: nothing to register with setWebhook, the run delivers to the route itself
          { api_root: need().apiRoot, mode: 'webhook', webhook_path: WEBHOOK_PATH, webhook_secret: WEBHOOK_SECRET },
    attach(gatewayUrl) {
      push = new PushDelivery(TELEGRAM_WEBHOOK_POLICY, gatewayUrl);
    },
    pushOutcomes: (key) => push?.outcomes(key) ?? [],
    pushRetries: () => push?.retries() ?? 0,
    inFlight: () => push?.inFlight() ?? 0,
    pushPending: () => push?.pending() ?? 0,
    send(user, text, group, key, photo) {
      const tg = need();
      if (!group) {
        deliver(key, {
          chatId: Number(user.id),
          userId: Number(user.id),
          text,
          firstName: user.name,
          ...(photo ? { photo: { data: photo.data, fileName: photo.fileName, mimeType: photo.mimeType } } : {}),
        });
        return { chatId: user.id };
      }
      deliver(key, {
        chatId: TELEGRAM_GROUP,
        chatType: 'supergroup',
        userId: Number(user.id),
        firstName: user.name,
        text: `@${tg.bot.username} ${text}`,
      });
      return { chatId: String(TELEGRAM_GROUP) };
    },
    takeReplies() {
      const sent = need().sent;
      const out = sent.slice(cursor).map((m) => ({ chatId: String(m.chat_id), text: m.text }));
      cursor = sent.length;
      return out;
    },
    takeUploads() {
      const uploads = need().uploads;
      const out = uploads.slice(uploadCursor).map((u) => ({ chatId: String(u.chat_id), text: u.fileName }));
      uploadCursor = uploads.length;
      return out;
    },
    replyCount: () => need().sent.length,
    shown: () => {
      const tg = need();
      return tg.sent.map((m) => ({
        id: `${m.chat_id}:${m.message_id}`,
        chatId: String(m.chat_id),
        text: tg.textOf(m.chat_id, m.message_id) ?? m.text,
      }));
    },
    rateLimitStorm(count) {
      for (let i = 0; i < count; i++) need().failNext('sendMessage', { status: 429, retryAfter: 1 });
    },
    serverErrors(count, status) {
      for (let i = 0; i < count; i++) need().failNext('sendMessage', { status });
    },
    async dropConnection() {
      need().dropConnections();
    },
    intakeAfter: (since) =>
      mode === 'polling' ? need().calls.find((c) => c.method === 'getUpdates' && c.at >= since)?.at : undefined,
    failuresAnswered() {
      const sends = need().calls.filter((c) => c.method === 'sendMessage');
      return {
        rateLimited: sends.filter((c) => c.status === 429).length,
        serverErrors: sends.filter((c) => (c.status ?? 0) >= 500).length,
      };
    },
    tick(now) {
      push?.tick(now);
    },
  };
}
