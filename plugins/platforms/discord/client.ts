/** The discord.js Client and REST instances the adapter uses, configured from the settings. */
import {
  Client,
  GatewayDispatchEvents,
  GatewayIntentBits,
  type GuildMember,
  Options,
  REST,
  type RESTOptions,
  type User,
} from 'discord.js';
import { makeRequest } from './rest-request.js';
import type { DiscordSettings } from './settings.js';

/**
 * Guilds (channels and threads: THREAD_CREATE/UPDATE), guild and DM messages, and message content
 * (privileged: enable "Message Content Intent" in the developer portal). Thread messages arrive
 * with GuildMessages.
 */
export const DISCORD_INTENTS = [
  GatewayIntentBits.Guilds,
  GatewayIntentBits.GuildMessages,
  GatewayIntentBits.DirectMessages,
  GatewayIntentBits.MessageContent,
] as const;

/**
 * discord.js REST options: never retry a request that may have reached Discord (retries: 0, so a
 * timed-out send is not sent twice); wait out a 429 inside discord.js unless it asks for longer than
 * `rateLimitWaitMaxMs`, in which case the send fails as rate_limited and the gateway waits. Requests
 * go through undici 7 (rest-request.ts).
 */
export function restOptions(settings: DiscordSettings): Partial<RESTOptions> {
  return {
    api: settings.apiBase,
    retries: 0,
    globalRequestsPerSecond: settings.globalRequestsPerSecond,
    rejectOnRateLimit: (data) => data.retryAfter > settings.rateLimitWaitMaxMs,
    makeRequest,
  };
}

/** The REST client for sends, typing, interactions and commands (its token set; no network yet). */
export function createRest(settings: DiscordSettings): REST {
  return new REST(restOptions(settings)).setToken(settings.token);
}

/**
 * What discord.js may cache (its `makeCache`). The adapter reads messages and interactions from raw
 * dispatches and sends through its own REST client; from discord.js's caches it reads only guilds
 * and their roles (the bot's managed role, for mentions), channels and threads (a channel's type),
 * `client.user` and `client.application`. Those stay unbounded (discord.js does not support
 * limiting them) and are bounded by the servers the bot is in. Everything that grows with the
 * people who write is kept to nothing: discord.js still builds a User and a GuildMember for every
 * server-channel message (and interaction) but no longer keeps them, so memory does not grow with
 * each new speaker. The bot's own user and its own member (`guild.members.me`) are kept.
 */
export const CACHE_LIMITS = {
  MessageManager: 0,
  PresenceManager: 0,
  ReactionManager: 0,
  ReactionUserManager: 0,
  VoiceStateManager: 0,
  ThreadMemberManager: 0,
  UserManager: { maxSize: 0, keepOverLimit: (user: User) => user.id === user.client.user?.id },
  GuildMemberManager: { maxSize: 0, keepOverLimit: (member: GuildMember) => member.id === member.client.user?.id },
} as const;

/**
 * A gateway client. Messages are read from raw dispatches (adapter.ts; guardPacketHandling keeps
 * MESSAGE_CREATE from discord.js), so discord.js keeps no message, user, member, presence or
 * reaction (CACHE_LIMITS), and gets no Channel partial: without it discord.js builds no DM channel
 * (and keeps none) for a DM-only event it is given.
 */
export function createClient(settings: DiscordSettings): Client {
  return new Client({
    intents: [...DISCORD_INTENTS],
    rest: restOptions(settings),
    makeCache: Options.cacheWithLimits({ ...Options.DefaultMakeCacheSettings, ...CACHE_LIMITS }),
  });
}

/**
 * Dispatches the adapter reads raw (adapter.ts) that discord.js is not given. For a server-channel
 * MESSAGE_CREATE discord.js would build a Message, a User, a GuildMember and the mentions, only to
 * emit an event nobody listens to and drop them (CACHE_LIMITS), and it would write the User into
 * the dispatch's `member.user`: the very payload the adapter keeps as the event's `raw`.
 */
export const RAW_ONLY_DISPATCHES: ReadonlySet<string> = new Set([GatewayDispatchEvents.MessageCreate]);

const dispatchType = (packet: unknown): string | undefined =>
  typeof packet === 'object' && packet !== null && 't' in packet && typeof packet.t === 'string' ? packet.t : undefined;

/**
 * discord.js also builds its own structures from every dispatch and throws on a malformed one,
 * inside @discordjs/ws's message handler, where the throw becomes an unhandled rejection. The
 * adapter has read (and validated) the raw dispatch before that point, so the throw is reported
 * to `onError` and the dispatch is left at that. A RAW_ONLY_DISPATCHES dispatch is not handed to
 * discord.js at all (only the queue of dispatches it held back before READY moves on, as on any
 * dispatch). Reaches into discord.js's private `handlePacket`; without it (another discord.js
 * version) nothing changes.
 */
export function guardPacketHandling(client: Client, onError: (event: string, error: unknown) => void): void {
  const ws = client.ws as unknown as { handlePacket?: (packet?: unknown, shard?: unknown) => boolean };
  const original = ws.handlePacket;
  if (typeof original !== 'function') return;
  ws.handlePacket = function guarded(this: unknown, packet?: unknown, shard?: unknown): boolean {
    const t = dispatchType(packet);
    try {
      return original.call(this, t !== undefined && RAW_ONLY_DISPATCHES.has(t) ? undefined : packet, shard);
    } catch (error) {
      onError(t ?? 'unknown', error);
      return true;
    }
  };
}
