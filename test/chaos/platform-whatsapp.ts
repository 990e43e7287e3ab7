// WhatsApp (the Cloud API) in the chaos run: each message is a webhook POSTed to the gateway's own
// server, signed with the app secret (X-Hub-Signature-256), and sent again while it gets no 200, as
// Meta does (its own retries go on for days, with growing gaps; here up to 4 s apart). Answers go to
// the fake Graph API. The Cloud API has no group chats: every message is a direct one.
import { type FakeWhatsApp, startFakeWhatsApp, type WaInboundMessage } from '../fakes/whatsapp-server.js';
import { signWebhook } from '../fakes/whatsapp-webhooks.js';
import type { ChaosPlatform } from './platforms.js';
import { streamAndSpare, users } from './platforms.js';
import { PushDelivery, WHATSAPP_WEBHOOK_POLICY } from './push-delivery.js';

const WEBHOOK_PATH = '/whatsapp/webhook';
const VERIFY_TOKEN = 'chaos-whatsapp-verify-token-51d0';
/** Meta's error codes the faults script: its throughput limit (429) and its server errors */
const RATE_LIMIT_CODE = 130429;
const SERVER_ERROR_CODE: Readonly<Record<number, number>> = { 500: 131000, 503: 131016 };
const MEDIA_TYPES = new Set(['image', 'audio', 'video', 'document']);

export function whatsappPlatform(): ChaosPlatform {
  let fake: FakeWhatsApp | null = null;
  let push: PushDelivery | null = null;
  let cursor = 0;
  let uploadCursor = 0;
  const need = (): FakeWhatsApp => {
    if (!fake) throw new Error('whatsapp: start() first');
    return fake;
  };
  const list = users((i) => `1555020${String(i).padStart(4, '0')}`);
  const deliver = (key: number, message: WaInboundMessage, sender: { from: string; name: string }): void => {
    if (!push) throw new Error('whatsapp: attach() first');
    const wa = need();
    const body = JSON.stringify(wa.webhooks.envelope({ messages: [message], sender }));
    const signature = signWebhook(body, wa.appSecret);
    push.push({
      key,
      path: WEBHOOK_PATH,
      request: () => ({ headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature }, body }),
    });
  };
  const texts = () => need().sent.filter((m) => m.type === 'text' || m.type === 'interactive');
  return {
    name: 'whatsapp',
    mode: 'webhook',
    groups: false,
    ...streamAndSpare(list),
    async start() {
      fake = await startFakeWhatsApp();
    },
    async close() {
      push?.close();
      await fake?.close();
    },
    env: () => ({
      WHATSAPP_ACCESS_TOKEN: need().token,
      WHATSAPP_PHONE_NUMBER_ID: need().phoneNumberId,
      WHATSAPP_APP_SECRET: need().appSecret,
      WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN,
      WHATSAPP_ALLOWED_USERS: list.map((u) => u.id).join(','),
    }),
    settings: () => ({ api_url: need().apiUrl, webhook_path: WEBHOOK_PATH }),
    attach(gatewayUrl) {
      push = new PushDelivery(WHATSAPP_WEBHOOK_POLICY, gatewayUrl);
    },
    pushOutcomes: (key) => push?.outcomes(key) ?? [],
    pushRetries: () => push?.retries() ?? 0,
    inFlight: () => push?.inFlight() ?? 0,
    pushPending: () => push?.pending() ?? 0,
    send(user, text, _group, key, photo) {
      const wa = need();
      const sender = { from: user.id, name: user.name };
      const message = photo
        ? wa.webhooks.media(sender, 'image', {
            id: wa.addMedia(photo.data, photo.mimeType),
            mimeType: photo.mimeType,
            caption: text,
          })
        : wa.webhooks.text(sender, text);
      deliver(key, message, sender);
      return { chatId: user.id };
    },
    takeReplies() {
      const sent = texts();
      const out = sent.slice(cursor).map((m) => ({ chatId: m.to, text: m.text }));
      cursor = sent.length;
      return out;
    },
    takeUploads() {
      const wa = need();
      const files = wa.sent.filter((m) => MEDIA_TYPES.has(m.type));
      const out = files.slice(uploadCursor).map((m) => ({
        chatId: m.to,
        text: wa.uploads.find((u) => u.id === m.mediaId)?.fileName ?? m.filename ?? '',
      }));
      uploadCursor = files.length;
      return out;
    },
    replyCount: () => texts().length,
    rateLimitStorm(count) {
      need().failNext('messages', RATE_LIMIT_CODE, count);
    },
    serverErrors(count, status) {
      need().failNext('messages', SERVER_ERROR_CODE[status] ?? 131000, count);
    },
    async dropConnection() {
      need().dropConnections();
    },
    failuresAnswered() {
      const sends = need().calls.filter((c) => c.method === 'POST' && c.path.endsWith('/messages'));
      return {
        rateLimited: sends.filter((c) => c.status === 429).length,
        serverErrors: sends.filter((c) => c.status >= 500).length,
      };
    },
    tick(now) {
      push?.tick(now);
    },
  };
}
