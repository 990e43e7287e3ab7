// Contract driver for WhatsApp (the WhatsApp Business Cloud API): messages arrive as webhooks signed
// with the app secret, POSTed to the gateway's own server; answers go to the fake Graph API
// (test/fakes/whatsapp-server.ts). Direct chats only: no `group` (the Cloud API's chats are one user
// with the business number), so the group scenarios are skipped; no connection to drop (webhooks).
import { WHATSAPP_CAPABILITIES, whatsappFactory } from '../../../plugins/platforms/whatsapp/index.js';
import { type FakeWhatsApp, startFakeWhatsApp, type WaInboundMessage } from '../../fakes/whatsapp-server.js';
import type { ButtonPrompt, ContractUser, InboundRef, PlatformDriver, SentFile, SentText } from '../driver.js';
import { eventually } from '../recorders.js';

const VERIFY_TOKEN = 'contract-verify-token-9e107d';
const WEBHOOK_PATH = '/whatsapp/webhook';
const MEDIA_TYPES = new Set(['image', 'audio', 'video', 'document']);

/** The WhatsApp driver. */
export function whatsappDriver(): PlatformDriver {
  let fake: FakeWhatsApp | null = null;
  let gatewayUrl = '';
  const need = (): FakeWhatsApp => {
    if (!fake) throw new Error('whatsapp driver: start() first');
    return fake;
  };

  async function post(payload: unknown): Promise<void> {
    const res = await need().deliver(`${gatewayUrl}${WEBHOOK_PATH}`, payload);
    if (res.status !== 200) throw new Error(`whatsapp webhook answered ${res.status}`);
  }

  async function inject(user: ContractUser, message: WaInboundMessage): Promise<InboundRef> {
    const payload = need().webhooks.envelope({ messages: [message], sender: { from: user.id, name: user.name } });
    await post(payload);
    // Meta delivers the same POST again when it thinks the first one failed
    return { messageId: message.id, chatId: user.id, redeliver: () => post(payload) };
  }

  const prompts = () => need().sent.filter((m) => m.type === 'interactive');

  return {
    platform: 'whatsapp',
    label: 'whatsapp (cloud api webhooks)',
    factory: whatsappFactory,
    maxMessageLength: WHATSAPP_CAPABILITIES.maxMessageLength,
    // WhatsApp ids are phone numbers: digits with the country code
    user: (index: number): ContractUser => ({ id: `1555010${String(index).padStart(4, '0')}`, name: `user${index}` }),
    async start() {
      fake = await startFakeWhatsApp();
    },
    async close() {
      await fake?.close();
    },
    reset() {
      need().reset();
    },
    env: (allowed) => ({
      WHATSAPP_ACCESS_TOKEN: need().token,
      WHATSAPP_PHONE_NUMBER_ID: need().phoneNumberId,
      WHATSAPP_APP_SECRET: need().appSecret,
      WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN,
      WHATSAPP_ALLOWED_USERS: allowed.map((u) => u.id).join(','),
    }),
    settings: () => ({ api_url: need().apiUrl, webhook_path: WEBHOOK_PATH }),
    useGatewayUrl(url) {
      gatewayUrl = url;
    },
    async waitReady() {},
    dm: (user, text) => inject(user, need().webhooks.text({ from: user.id, name: user.name }, text)),
    // a WhatsApp message carries one file, its caption the text; the fake serves it by media id
    oneFilePerMessage: true,
    dmFiles: (user, text, files) => {
      const [file] = files;
      if (file === undefined || files.length > 1) throw new Error('whatsapp driver: one file a message');
      const sender = { from: user.id, name: user.name };
      const id = need().addMedia(file.data, file.mimeType);
      const message =
        file.kind === 'photo'
          ? need().webhooks.media(sender, 'image', { id, mimeType: file.mimeType, caption: text })
          : file.kind === 'voice'
            ? need().webhooks.media(sender, 'audio', { id, mimeType: `${file.mimeType}; codecs=opus`, voice: true })
            : need().webhooks.media(sender, 'document', {
                id,
                mimeType: file.mimeType,
                filename: file.name,
                caption: text,
              });
      return inject(user, message);
    },
    sent: (): SentText[] =>
      need()
        .sent.filter((m) => m.type === 'text' || m.type === 'interactive')
        .map((m) => ({ chatId: m.to, text: m.text })),
    sentFiles: (): SentFile[] =>
      need()
        .sent.filter((m) => MEDIA_TYPES.has(m.type))
        .map((m) => {
          const upload = need().uploads.find((u) => u.id === m.mediaId);
          return {
            chatId: m.to,
            fileName: upload?.fileName ?? m.filename ?? '',
            kind: m.type === 'image' ? ('image' as const) : ('document' as const),
            size: upload?.size ?? 0,
            sha256: upload?.sha256 ?? '',
          };
        }),
    failNextUpload() {
      need().failNext('media', 131053);
    },
    rateLimitNextSend() {
      // Meta's throughput limit (130429) says no retry-after: the adapter waits its 1 s default
      need().failNext('messages', 130429);
    },
    async dropConnection() {}, // webhooks: no connection to drop
    connectionCount: () => 0,
    openConnections: () => 0,
    buttonPrompts: (): ButtonPrompt[] =>
      prompts().map((m) => ({
        id: m.id,
        text: m.text,
        labels: m.buttons.map((b) => b.title),
        open: true, // WhatsApp cannot take buttons off a sent message
      })),
    async pressButton(user, promptId, label) {
      const prompt = prompts().find((m) => m.id === promptId);
      const button = prompt?.buttons.find((b) => b.title === label);
      if (prompt === undefined || button === undefined) throw new Error(`no button ${label} under ${promptId}`);
      const press = need().webhooks.buttonReply({ from: user.id, name: user.name }, button, prompt.id);
      await inject(user, press);
      // the answer to a press is a message to the presser quoting the press
      const answer = () => need().sent.find((m) => m.to === user.id && m.replyTo === press.id);
      await eventually(() => answer() !== undefined, 30_000, 'the answer to a press');
      return answer()?.text ?? '';
    },
  };
}
