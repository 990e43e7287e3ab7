/** The discord.js Client and REST instances the adapter uses, configured from the settings. */
import { Client, GatewayIntentBits, Options, REST, type RESTOptions } from 'discord.js';
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
 * A gateway client. Messages are read from raw dispatches (adapter.ts), so discord.js keeps no
 * message, presence or reaction cache, and gets no Channel partial: without it discord.js drops a
 * DM's MESSAGE_CREATE at once (its DM channel is not cached) instead of building a DM channel, a
 * User and a Message for every DM and keeping the first two for good; the raw dispatch still
 * reaches the adapter. Guild messages, whose channels discord.js caches from GUILD_CREATE, are
 * still built into its structures.
 */
export function createClient(settings: DiscordSettings): Client {
  return new Client({
    intents: [...DISCORD_INTENTS],
    rest: restOptions(settings),
    makeCache: Options.cacheWithLimits({
      ...Options.DefaultMakeCacheSettings,
      MessageManager: 0,
      PresenceManager: 0,
      ReactionManager: 0,
    }),
  });
}

/**
 * discord.js also builds its own structures from every dispatch and throws on a malformed one,
 * inside @discordjs/ws's message handler, where the throw becomes an unhandled rejection. The
 * adapter has read (and validated) the raw dispatch before that point, so the throw is reported
 * to `onError` and the dispatch is left at that. Reaches into discord.js's private `handlePacket`;
 * without it (another discord.js version) nothing changes.
 */
export function guardPacketHandling(client: Client, onError: (event: string, error: unknown) => void): void {
  const ws = client.ws as unknown as { handlePacket?: (packet?: unknown, shard?: unknown) => boolean };
  const original = ws.handlePacket;
  if (typeof original !== 'function') return;
  ws.handlePacket = function guarded(this: unknown, packet?: unknown, shard?: unknown): boolean {
    try {
      return original.call(this, packet, shard);
    } catch (error) {
      const t = typeof packet === 'object' && packet !== null && 't' in packet ? String(packet.t) : 'unknown';
      onError(t, error);
      return true;
    }
  };
}
