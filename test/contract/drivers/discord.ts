// Contract driver for Discord: the real discord.js gateway client and REST against the fake Discord
// (test/fakes/discord-server.ts). Groups are the fake guild's `general` text channel.
import { DISCORD_CAPABILITIES, discordFactory } from '../../../plugins/platforms/discord/index.js';
import { type DispatchedMessage, type FakeDiscord, startFakeDiscord } from '../../fakes/discord-server.js';
import type { ContractUser, EditProbe, InboundRef, PlatformDriver, SentText } from '../driver.js';

const TOKEN = 'MTc3NzAwMTc3NzAwMTc3NzAwMQ.GcOnTr.CONTRACT-discord-token-0123456789abcdefgh';
const FIRST_USER_ID = 377_000_000_000_000_001n;
const READY_TIMEOUT_MS = 5_000;

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
    group: async (user, text, { mention }) => ref(need().guildMessage({ user, content: text, mention })),
    sent: (): SentText[] => {
      const discord = need();
      return discord.sent.map((message) => ({
        chatId: message.channel_id,
        ...(message.channel_id === discord.threadId ? { threadId: message.channel_id } : {}),
        text: visibleText(message.content),
      }));
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
