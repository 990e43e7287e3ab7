/**
 * Catch-up at start: Discord replays missed events only to a session it resumes, and a restarted
 * gateway starts a new session, so what users wrote while it was down would never arrive. Once the
 * first session is ready, each channel with a cursor (the newest message accepted there) is read
 * through REST from that message on, and every message younger than `catch_up_hours` goes through
 * the same path as a live MESSAGE_CREATE: ignored or answered by the same rules, once (the inbox
 * dedupes what the live gateway also delivered).
 */
import type { Logger } from '@hermes/protocol';
import { DiscordAPIError, type REST, Routes } from 'discord.js';
import type { CatchUpCursors } from './catch-up-cursors.js';
import { describeError } from './error-text.js';

/** channels read per start, most recently active first */
export const MAX_CHANNELS_PER_START = 50;
/** pages of 100 messages read per channel */
export const MAX_PAGES_PER_CHANNEL = 5;
const PAGE = 100;
const DISCORD_EPOCH_MS = 1_420_070_400_000;

/** The creation time of a snowflake, in ms since the Unix epoch. */
export function snowflakeTime(id: string): number {
  return Number(BigInt(id) >> 22n) + DISCORD_EPOCH_MS;
}

export interface CatchUpOptions {
  rest: REST;
  cursors: CatchUpCursors;
  logger: Logger;
  maxAgeMs: number;
  now: () => number;
  signal: AbortSignal;
  /** hands one message payload to the live MESSAGE_CREATE path */
  handle(data: Record<string, unknown>): void;
}

export interface CatchUpResult {
  channels: number;
  messages: number;
}

const isMessage = (value: unknown): value is Record<string, unknown> & { id: string } =>
  typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'string';

/** Reads every cursor's channel from its last accepted message on; resolves when all were handed over. */
export async function catchUp(options: CatchUpOptions): Promise<CatchUpResult> {
  const { rest, cursors, logger, signal } = options;
  const oldest = options.now() - options.maxAgeMs;
  const result: CatchUpResult = { channels: 0, messages: 0 };
  for (const [channelId, cursor] of cursors.list().slice(0, MAX_CHANNELS_PER_START)) {
    if (signal.aborted) break;
    let after = cursor.lastId;
    let handed = 0;
    try {
      for (let page = 0; page < MAX_PAGES_PER_CHANNEL && !signal.aborted; page++) {
        const query = new URLSearchParams({ after, limit: String(PAGE) });
        const answer: unknown = await rest.get(Routes.channelMessages(channelId), { query });
        const found = (Array.isArray(answer) ? answer : []).filter(isMessage);
        // Discord answers newest first; hand them over oldest first, as they were written
        found.sort((a, b) => (a.id.length !== b.id.length ? a.id.length - b.id.length : a.id < b.id ? -1 : 1));
        for (const message of found) {
          if (signal.aborted) break;
          if (snowflakeTime(message.id) < oldest) continue;
          options.handle(cursor.guildId === undefined ? message : { ...message, guild_id: cursor.guildId });
          handed += 1;
        }
        const last = found.at(-1);
        if (found.length < PAGE || last === undefined) break;
        after = last.id;
      }
    } catch (error) {
      if (error instanceof DiscordAPIError && (error.status === 403 || error.status === 404)) {
        // the channel is gone or the bot lost access: stop asking after it
        cursors.drop(channelId);
        logger.info({ channelId, status: error.status }, 'discord: catch-up channel no longer readable; forgotten');
        continue;
      }
      logger.warn({ channelId, error: describeError(error) }, 'discord: catch-up of a channel failed');
      continue;
    }
    result.channels += 1;
    result.messages += handed;
  }
  return result;
}
