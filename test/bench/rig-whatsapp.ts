// WhatsApp (Cloud API) for the process benches: webhooks in (the bench POSTs signed payloads to the
// system's port, as Meta does), POST /messages out on a fake Graph API in the bench process, the
// replies seen as the fake records them. Bare: test/bench/bare/whatsapp-echo.ts (node:http + fetch).
import { type FakeWhatsApp, signWebhook, startFakeWhatsApp } from '../fakes/whatsapp-server.js';
import { webhookClient } from './pipeline-load.js';
import { watchPushes } from './push-watch.js';
import { closeAll, type PlatformRig, type RunningSystem, type StartOptions } from './rig.js';
import { startBareOrHermes } from './start-system.js';

const WEBHOOK_PATH = '/whatsapp/webhook';
const VERIFY_TOKEN = 'bench-verify-token';
/** keep-alive sockets the bench opens to the system (as the Telegram rig: 64 chats never wait for one) */
const MAX_SOCKETS = 100;

/** The `i`-th bench chat: a WhatsApp id (digits with the country code). */
export const whatsappChat = (i: number): string => `1555${String(7_000_000 + i)}`;

function startSystem(fake: FakeWhatsApp, options: StartOptions) {
  return startBareOrHermes(
    {
      sdk: 'bare node:http + fetch',
      script: 'whatsapp-echo',
      bareEnv: {
        BENCH_WHATSAPP_API_URL: fake.apiUrl,
        BENCH_WHATSAPP_TOKEN: fake.token,
        BENCH_WHATSAPP_PHONE_NUMBER_ID: fake.phoneNumberId,
        BENCH_WHATSAPP_APP_SECRET: fake.appSecret,
        BENCH_WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN,
      },
      ready: /\{"ready":true,"port":(\d+)\}/,
      hermes: {
        platform: 'whatsapp',
        settings: { api_url: fake.apiUrl, webhook_path: WEBHOOK_PATH },
        env: {
          WHATSAPP_ACCESS_TOKEN: fake.token,
          WHATSAPP_PHONE_NUMBER_ID: fake.phoneNumberId,
          WHATSAPP_APP_SECRET: fake.appSecret,
          WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN,
          WHATSAPP_ALLOWED_USERS: '*',
        },
      },
    },
    options,
  );
}

export const whatsappRig: PlatformRig<string> = {
  platform: 'whatsapp',
  apiCalls: 'Graph API calls',
  async start(options): Promise<RunningSystem<string>> {
    const closers: (() => Promise<void> | void)[] = [];
    try {
      const fake = await startFakeWhatsApp();
      closers.push(() => fake.close());
      const watch = watchPushes(fake.sent, { keyOf: (m) => m.to, textOf: (m) => m.text });
      closers.push(() => watch.restore());
      const { label, proc, port } = await startSystem(fake, options);
      closers.push(() => proc.stop());
      const client = webhookClient(
        {
          name: label,
          port,
          path: WEBHOOK_PATH,
          secret: '',
          headers: (body) => ({ 'x-hub-signature-256': signWebhook(body, fake.appSecret) }),
        },
        MAX_SOCKETS,
      );
      closers.push(() => client.close());
      let next = 0;
      return {
        kind: options.kind,
        label,
        proc,
        traffic: {
          async send(chat, text) {
            const sender = { from: chat, name: `Bench ${chat}` };
            const payload = fake.webhooks.envelope({ messages: [fake.webhooks.text(sender, text)], sender });
            const status = await client.post(JSON.stringify(payload)).catch((error: unknown) => {
              throw new Error(`${label}: webhook POST for ${chat} failed: ${String(error)}\n${proc.outputTail()}`);
            });
            if (status !== 200) throw new Error(`${label}: webhook POST for ${chat} answered ${status}`);
          },
          next: (chat, timeoutMs) => watch.next(chat, timeoutMs),
          newChat: () => whatsappChat(next++),
          describe: (chat) => `whatsapp chat ${chat}`,
        },
        takeApiCalls() {
          const calls = fake.calls.length;
          fake.reset();
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
