// Contract drivers for Telegram: grammy long polling, and webhook mode on the gateway's Fastify,
// both against the fake Bot API (test/fakes/telegram-server.ts).
import { TELEGRAM_CAPABILITIES, telegramFactory } from '../../../plugins/platforms/telegram/index.js';
import { type FakeTelegram, type PushMessageInput, startFakeTelegram } from '../../fakes/telegram-server.js';
import type {
  ButtonPrompt,
  ContractFile,
  ContractUser,
  EditProbe,
  InboundRef,
  PlatformDriver,
  SentFile,
  SentText,
} from '../driver.js';
import { eventually } from '../recorders.js';

type Keyboard = { inline_keyboard: { text: string; callback_data: string }[][] };

const TOKEN = '777001:CONTRACT-telegram-token';
const GROUP_CHAT_ID = -100_777;
const WEBHOOK_SECRET = 'contract-webhook-secret';
const WEBHOOK_PATH = '/telegram/webhook';

type Mode = 'polling' | 'webhook';

/** The Telegram driver in polling (default) or webhook mode. */
export function telegramDriver(mode: Mode = 'polling'): PlatformDriver {
  let fake: FakeTelegram | null = null;
  let gatewayUrl = '';
  const need = (): FakeTelegram => {
    if (!fake) throw new Error('telegram driver: start() first');
    return fake;
  };
  const pollsSoFar = () => need().calls.filter((c) => c.method === 'getUpdates').length;

  /** The message fields that carry one file, as Telegram sends it. */
  function fileFields(file: ContractFile): Partial<PushMessageInput> {
    const input = { data: file.data, fileName: file.name, mimeType: file.mimeType };
    if (file.kind === 'photo') return { photo: input };
    if (file.kind === 'voice') return { voice: input };
    return { document: input };
  }

  async function inject(input: PushMessageInput): Promise<InboundRef> {
    const tg = need();
    const update = mode === 'polling' ? tg.pushMessage(input) : tg.webhookUpdate(input);
    const post = async () => {
      const res = await fetch(`${gatewayUrl}${WEBHOOK_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': WEBHOOK_SECRET },
        body: JSON.stringify(update),
      });
      if (res.status !== 200) throw new Error(`webhook answered ${res.status}`);
    };
    if (mode === 'webhook') await post();
    const messageId = String(update.message?.message_id ?? '');
    return {
      messageId,
      chatId: String(input.chatId),
      redeliver: async () => {
        if (mode === 'webhook') await post();
        else tg.pushUpdate(update); // the same update_id again, as after a lost acknowledgement
      },
    };
  }

  const edits: EditProbe = {
    posted: () =>
      need().sent.map((m) => ({ id: `${m.chat_id}:${m.message_id}`, chatId: String(m.chat_id), text: m.text })),
    edits: () => need().edits.map((e) => ({ id: `${e.chat_id}:${e.message_id}`, text: e.text })),
    reactionsOn: (ref) =>
      need()
        .reactions.filter((r) => String(r.message_id) === ref.messageId)
        .at(-1)?.emoji ?? [],
    native: (emoji) => ({ '✅': '👍', '❌': '👎' })[emoji] ?? emoji,
    rateLimitNextEdit(retryAfterMs) {
      need().failNext('editMessageText', { status: 429, retryAfter: Math.max(1, Math.ceil(retryAfterMs / 1000)) });
    },
    refuseNextEdits(count) {
      for (let i = 0; i < count; i++) {
        need().failNext('editMessageText', { status: 400, description: 'Bad Request: message to edit not found' });
      }
    },
  };

  return {
    edits,
    platform: 'telegram',
    label: `telegram (${mode})`,
    factory: telegramFactory,
    maxMessageLength: TELEGRAM_CAPABILITIES.maxMessageLength,
    user: (index: number): ContractUser => ({ id: String(4_201 + index), name: `user${index}` }),
    async start() {
      fake = await startFakeTelegram({ token: TOKEN, longPollCapMs: 100 });
    },
    async close() {
      await fake?.close();
    },
    reset() {
      need().reset();
    },
    env: (allowed) => ({
      TELEGRAM_BOT_TOKEN: TOKEN,
      TELEGRAM_ALLOWED_USERS: allowed.map((u) => u.id).join(','),
    }),
    settings: () => ({
      api_root: need().apiRoot,
      poll_timeout_s: 1,
      ...(mode === 'webhook'
        ? { mode: 'webhook', webhook_url: `https://bot.example.invalid${WEBHOOK_PATH}`, webhook_secret: WEBHOOK_SECRET }
        : {}),
    }),
    useGatewayUrl(url) {
      gatewayUrl = url;
    },
    async waitReady() {
      if (mode === 'webhook') return;
      await eventually(() => need().pendingPolls() > 0, undefined, 'telegram driver: a getUpdates poll');
    },
    dm: (user, text) => inject({ chatId: Number(user.id), userId: Number(user.id), text, firstName: user.name }),
    group: (user, text, { mention }) =>
      inject({
        chatId: GROUP_CHAT_ID,
        chatType: 'supergroup',
        userId: Number(user.id),
        firstName: user.name,
        text: mention ? `@${need().bot.username} ${text}` : text,
      }),
    async dmFiles(user, text, files) {
      const tg = need();
      const base = { chatId: Number(user.id), userId: Number(user.id), firstName: user.name };
      if (files.length === 1 && files[0]) return inject({ ...base, text, ...fileFields(files[0]) });
      // several files: an album, one update each (queued together, as Telegram does), the caption on the first
      const mediaGroupId = `album-${Date.now()}`;
      const inputs = files.map((file, i) => ({
        ...base,
        ...(i === 0 ? { text } : {}),
        mediaGroupId,
        ...fileFields(file),
      }));
      const updates = mode === 'polling' ? tg.pushMessages(inputs) : inputs.map((input) => tg.webhookUpdate(input));
      const post = (update: (typeof updates)[number]) =>
        fetch(`${gatewayUrl}${WEBHOOK_PATH}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': WEBHOOK_SECRET },
          body: JSON.stringify(update),
        }).then((res) => {
          if (res.status !== 200) throw new Error(`webhook answered ${res.status}`);
        });
      // Telegram POSTs an album's updates over parallel connections
      if (mode === 'webhook') await Promise.all(updates.map(post));
      return {
        messageId: String(updates[0]?.message?.message_id ?? ''),
        chatId: String(user.id),
        redeliver: async () => {
          if (mode === 'webhook') await Promise.all(updates.map(post));
          else for (const update of updates) tg.pushUpdate(update);
        },
      };
    },
    buttonPrompts: (): ButtonPrompt[] =>
      need()
        .sent.filter((m) => m.body.reply_markup !== undefined)
        .map((m) => ({
          id: String(m.message_id),
          text: m.text,
          labels: (m.body.reply_markup as Keyboard).inline_keyboard.flat().map((b) => b.text),
          open: m.reply_markup !== undefined,
        })),
    async pressButton(user, promptId, label) {
      const tg = need();
      const prompt = tg.sent.find((m) => String(m.message_id) === promptId);
      const keyboard = prompt?.body.reply_markup as Keyboard | undefined;
      const data = keyboard?.inline_keyboard.flat().find((b) => b.text === label)?.callback_data;
      if (prompt === undefined || data === undefined) throw new Error(`no button ${label} under ${promptId}`);
      const input = { chatId: Number(prompt.chat_id), userId: Number(user.id), messageId: prompt.message_id, data };
      const update = mode === 'polling' ? tg.pushCallbackQuery(input) : tg.callbackQueryUpdate(input);
      if (mode === 'webhook') {
        const res = await fetch(`${gatewayUrl}${WEBHOOK_PATH}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': WEBHOOK_SECRET },
          body: JSON.stringify(update),
        });
        if (res.status !== 200) throw new Error(`webhook answered ${res.status}`);
      }
      const id = update.callback_query?.id ?? '';
      await eventually(() => tg.callbackAnswers.has(id), 30_000, 'answerCallbackQuery');
      return tg.callbackAnswers.get(id) ?? '';
    },
    sent: (): SentText[] =>
      need().sent.map((m) => ({
        chatId: String(m.chat_id),
        ...(m.message_thread_id !== undefined ? { threadId: String(m.message_thread_id) } : {}),
        text: m.text,
      })),
    sentFiles: (): SentFile[] =>
      need().uploads.map((u) => ({
        chatId: String(u.chat_id),
        ...(u.message_thread_id !== undefined ? { threadId: String(u.message_thread_id) } : {}),
        fileName: u.fileName,
        kind:
          u.method === 'sendPhoto'
            ? ('image' as const)
            : u.method === 'sendVoice'
              ? ('voice' as const)
              : ('document' as const),
        size: u.size,
        sha256: u.sha256,
      })),
    failNextUpload() {
      const refusal = { status: 400, description: 'Bad Request: file is too big' };
      need().failNext('sendPhoto', refusal);
      need().failNext('sendDocument', refusal);
    },
    rateLimitNextSend(retryAfterMs) {
      const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
      need().failNext('sendMessage', { status: 429, retryAfter: seconds });
    },
    async dropConnection() {
      if (mode === 'polling') need().dropConnections();
    },
    connectionCount: () => (mode === 'polling' ? pollsSoFar() : 0),
    openConnections: () => (mode === 'polling' ? need().pendingPolls() : 0),
  };
}
