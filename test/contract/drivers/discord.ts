// Contract driver for Discord: the real discord.js gateway client and REST against the fake Discord
// (test/fakes/discord-server.ts). Groups are the fake guild's `general` text channel.
// discord.js loaded with this file, before any gateway of the run: the adapter now loads it when the
// platform starts (lazyAdapter), and loaded after another in-process gateway had sent requests, its
// multipart uploads failed ("action is not a function"; most likely its undici 6 took the undici 7 agent an
// earlier gateway registered as the global dispatcher). A gateway process loads it at start, before
// any model request; see the session note.
import 'discord.js';
import { DISCORD_CAPABILITIES, discordFactory } from '../../../plugins/platforms/discord/index.js';
import { type DispatchedMessage, type FakeDiscord, startFakeDiscord } from '../../fakes/discord-server.js';
import type {
  ButtonPrompt,
  ContractUser,
  EditProbe,
  InboundRef,
  PlatformDriver,
  SentFile,
  SentText,
} from '../driver.js';

type Rows = { components: { label: string; custom_id: string }[] }[];

const TOKEN = 'MTc3NzAwMTc3NzAwMTc3NzAwMQ.GcOnTr.CONTRACT-discord-token-0123456789abcdefgh';
const FIRST_USER_ID = 377_000_000_000_000_001n;
const READY_TIMEOUT_MS = 30_000;

/** The visible text of Discord markdown: emphasis, code, heading, quote and link markup removed. */
export function visibleText(content: string): string {
  return content
    .replace(/^```[^\n]*\n?|\n?```$/gm, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__|~~|`)/g, '')
    .replace(/(^|[^\w*])\*(?=\S)([^*\n]*?\S)\*(?!\w)/g, '$1$2')
    .replace(/(^|[^\w])_(?=\S)([^_\n]*?\S)_(?!\w)/g, '$1$2')
    .replace(/^ {0,3}(?:#{1,3} |> ?)/gm, '');
}

/** The Discord driver. */
export function discordDriver(): PlatformDriver {
  let fake: FakeDiscord | null = null;
  const need = (): FakeDiscord => {
    if (!fake) throw new Error('discord driver: start() first');
    return fake;
  };

  function ref(message: DispatchedMessage): InboundRef {
    const discord = need();
    return {
      messageId: message.id,
      chatId: message.channel_id,
      // the gateway dispatches the same MESSAGE_CREATE again (as after a resume that replays it)
      redeliver: async () => discord.dispatch('MESSAGE_CREATE', message),
    };
  }

  const edits: EditProbe = {
    posted: () => need().sent.map((m) => ({ id: m.id, chatId: m.channel_id, text: m.content })),
    edits: () => need().edits.map((e) => ({ id: e.id, text: e.content })),
    reactionsOn: (inbound) => need().reactionsOn(inbound.messageId.slice(inbound.messageId.lastIndexOf(':') + 1)),
    native: (emoji) => emoji,
    rateLimitNextEdit(retryAfterMs) {
      need().failNext('editMessage', { status: 429, retryAfterMs });
    },
    refuseNextEdits(count) {
      for (let i = 0; i < count; i++)
        need().failNext('editMessage', { status: 404, code: 10008, message: 'Unknown Message' });
    },
  };

  return {
    edits,
    platform: 'discord',
    label: 'discord',
    factory: discordFactory,
    maxMessageLength: DISCORD_CAPABILITIES.maxMessageLength,
    user: (index: number): ContractUser => ({ id: String(FIRST_USER_ID + BigInt(index)), name: `user${index}` }),
    async start() {
      fake = await startFakeDiscord({ token: TOKEN });
    },
    async close() {
      await fake?.close();
    },
    reset() {
      need().reset();
    },
    env: (allowed) => ({
      DISCORD_BOT_TOKEN: TOKEN,
      DISCORD_ALLOWED_USERS: allowed.map((user) => user.id).join(','),
    }),
    settings: () => ({ api_base: need().apiBase }),
    useGatewayUrl() {
      // events arrive over the gateway WebSocket, not over HTTP
    },
    async waitReady() {
      const discord = need();
      await discord.until(() => discord.latestReady(), READY_TIMEOUT_MS, 'a ready gateway connection');
    },
    dm: async (user, text) => ref(need().dmMessage({ user, content: text })),
    // a voice message is an audio/ogg attachment (with the voice-message flag, which the adapter need not read)
    dmFiles: async (user, text, files) =>
      ref(
        need().dmMessage({
          user,
          content: text,
          attachments: files.map((f) => ({ data: f.data, fileName: f.name, contentType: f.mimeType })),
        }),
      ),
    group: async (user, text, { mention }) => ref(need().guildMessage({ user, content: text, mention })),
    buttonPrompts: (): ButtonPrompt[] =>
      need()
        .sent.filter((m) => Array.isArray(m.body.components) && m.body.components.length > 0)
        .map((m) => ({
          id: m.id,
          text: m.content,
          labels: (m.body.components as Rows).flatMap((row) => row.components.map((b) => b.label)),
          open: (m.components ?? []).length > 0,
        })),
    async pressButton(user, promptId, label) {
      const discord = need();
      const prompt = discord.sent.find((m) => m.id === promptId);
      const rows = (prompt?.body.components ?? []) as Rows;
      const customId = rows.flatMap((row) => row.components).find((b) => b.label === label)?.custom_id;
      if (customId === undefined) throw new Error(`no button ${label} under ${promptId}`);
      const press = discord.buttonPress({ messageId: promptId, customId, user });
      const reply = () => discord.sent.find((m) => m.interactionId === press.id);
      await discord.until(() => reply() !== undefined, 30_000, 'the answer to a button press');
      return reply()?.content ?? '';
    },
    sent: (): SentText[] => {
      const discord = need();
      // text messages only: an upload (content empty, files attached) is in sentFiles()
      return discord.sent
        .filter((message) => message.files === undefined)
        .map((message) => ({
          chatId: message.channel_id,
          ...(message.channel_id === discord.threadId ? { threadId: message.channel_id } : {}),
          text: visibleText(message.content),
        }));
    },
    sentFiles: (): SentFile[] => {
      const discord = need();
      return discord.sent.flatMap((message) =>
        (message.files ?? []).map((file) => ({
          chatId: message.channel_id,
          ...(message.channel_id === discord.threadId ? { threadId: message.channel_id } : {}),
          fileName: file.fileName,
          kind: file.contentType.startsWith('image/') ? ('image' as const) : ('document' as const),
          size: file.size,
          sha256: file.sha256,
        })),
      );
    },
    failNextUpload() {
      // Discord refuses a file over the channel's upload limit with 413 / code 40005
      need().failNext('createMessage', { status: 413, code: 40005, message: 'Request entity too large' });
    },
    rateLimitNextSend(retryAfterMs) {
      need().rateLimitNextSends(1, retryAfterMs);
    },
    async dropConnection() {
      await need().dropConnections(4000);
    },
    connectionCount: () => need().connectionCount(),
    openConnections: () => need().openConnections(),
  };
}
