// The load helpers the Discord benches need on the fake Discord: N chats, one injected MESSAGE_CREATE
// per message, and a per-chat waiter that timestamps each reply the moment the fake records it
// (the bare discord.js baseline is its own process: test/bench/bare/discord-echo.ts).
import type { DispatchedMessage, FakeDiscord, FakeUser, SentMessage } from '../fakes/discord-server.js';

/** Where the bench talks: DMs with distinct users (no mention needed), or guild text channels (with a mention). */
export type DiscordChatKind = 'dm' | 'guild';

export interface DiscordChat {
  kind: DiscordChatKind;
  /** the channel the message goes to and the reply is expected in */
  channelId: string;
  /** the user who writes in this chat */
  user: FakeUser;
}

const FIRST_BENCH_USER_ID = 477_000_000_000_000_001n;

/**
 * `count` chats on the fake: DM channels of `count` distinct users, or guild text channels (the
 * fake's own first, then new ones, announced with CHANNEL_CREATE to bots already connected).
 * `firstIndex` (default 0) numbers the users from there, so later calls can make chats never used before.
 */
export function discordChats(
  fake: FakeDiscord,
  count: number,
  kind: DiscordChatKind = 'dm',
  firstIndex = 0,
): DiscordChat[] {
  const chats: DiscordChat[] = [];
  for (let n = 0; n < count; n++) {
    const i = firstIndex + n;
    const user = { id: String(FIRST_BENCH_USER_ID + BigInt(i)), name: `bench${i}` };
    const channelId =
      kind === 'dm' ? fake.dmChannelId(user) : (fake.textChannelIds[i] ?? fake.addTextChannel(`bench-${i}`));
    chats.push({ kind, channelId, user });
  }
  return chats;
}

/** Dispatches one user message in `chat` over the gateway (in a guild channel, mentioning the bot). */
export function injectMessage(fake: FakeDiscord, chat: DiscordChat, text: string): DispatchedMessage {
  return chat.kind === 'dm'
    ? fake.dmMessage({ user: chat.user, content: text })
    : fake.guildMessage({ user: chat.user, content: text, channelId: chat.channelId, mention: true });
}

/** A reply as the fake recorded it: `at` is `performance.now()` at the moment of the record. */
export interface DiscordReply {
  at: number;
  text: string;
}

export interface DiscordReplyWatch {
  /** resolves with the next message the bot sends in `channelId` (register before injecting) */
  next(channelId: string, timeoutMs: number): Promise<DiscordReply>;
  /** messages the bot sent where no chat was waiting (a second answer, a stray message) */
  readonly unexpected: number;
  /** stops watching */
  restore(): void;
}

/** Watches the fake's sends (channel messages and interaction answers alike) without polling. */
export function watchDiscordReplies(fake: FakeDiscord): DiscordReplyWatch {
  const waiters = new Map<string, (reply: DiscordReply) => void>();
  let unexpected = 0;
  const stop = fake.onSend((message: SentMessage) => {
    const wake = waiters.get(message.channel_id);
    if (wake === undefined) {
      unexpected += 1;
      return;
    }
    waiters.delete(message.channel_id);
    wake({ at: message.at, text: message.content });
  });
  return {
    next(channelId, timeoutMs) {
      if (waiters.has(channelId)) return Promise.reject(new Error(`channel ${channelId} already waits for a reply`));
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(channelId);
          reject(new Error(`no reply in channel ${channelId} within ${timeoutMs} ms`));
        }, timeoutMs);
        timer.unref();
        waiters.set(channelId, (reply) => {
          clearTimeout(timer);
          resolve(reply);
        });
      });
    },
    get unexpected() {
      return unexpected;
    },
    restore() {
      stop();
      waiters.clear();
    },
  };
}
