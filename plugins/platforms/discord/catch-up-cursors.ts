/**
 * The newest accepted message of each channel, kept in the platform state and written in the same
 * transaction as the message it names, so that after a restart the adapter can fetch what users
 * wrote while the gateway was down (Discord does not replay it to a new session).
 *
 * State keys: `catch_up:<channel id>` = `<message id>` or `<message id>:<guild id>` (one small
 * write per accepted message), and `catch_up_channels` = a JSON list of the channel ids (written
 * only when a channel is added). The MAX_CHANNELS most recently active channels are kept: the
 * cursor key of a channel that leaves the list (or that the bot can no longer read) is deleted.
 */
import type { PlatformContext } from '@hermes/protocol';

export const CHANNELS_KEY = 'catch_up_channels';
export const cursorKey = (channelId: string): string => `catch_up:${channelId}`;
export const MAX_CHANNELS = 200;

export interface Cursor {
  /** the newest accepted message id (a snowflake) */
  lastId: string;
  /** set for guild channels: REST messages carry no guild_id, the gateway's do */
  guildId?: string;
}

export interface CatchUpCursors {
  /** every channel with a cursor, most recently active first */
  list(): [channelId: string, cursor: Cursor][];
  /** the state to store with this message's accept: the channel's cursor once it is accepted */
  stateWith(channelId: string, messageId: string, guildId: string | undefined): Record<string, string>;
  /** records the accepted message (after the accept committed) */
  advance(channelId: string, messageId: string, guildId: string | undefined): void;
  /** forgets a channel the bot can no longer read (its cursor key deleted) */
  drop(channelId: string): void;
}

const SNOWFLAKE = /^\d{1,20}$/;

/** Whether snowflake `a` is newer than `b` (64-bit: compared by length, then as strings). */
export function snowflakeAfter(a: string, b: string): boolean {
  return a.length !== b.length ? a.length > b.length : a > b;
}

function parseCursor(text: string | undefined): Cursor | undefined {
  if (text === undefined) return undefined;
  const [lastId, guildId] = text.split(':');
  if (lastId === undefined || !SNOWFLAKE.test(lastId)) return undefined;
  return guildId !== undefined && SNOWFLAKE.test(guildId) ? { lastId, guildId } : { lastId };
}

const cursorText = (messageId: string, guildId: string | undefined): string =>
  guildId === undefined ? messageId : `${messageId}:${guildId}`;

function readChannels(state: PlatformContext['state']): string[] {
  try {
    const parsed: unknown = JSON.parse(state.get(CHANNELS_KEY) ?? '[]');
    return Array.isArray(parsed)
      ? parsed.filter((id): id is string => typeof id === 'string' && SNOWFLAKE.test(id))
      : [];
  } catch {
    return []; // a damaged list only costs the catch-up
  }
}

export function createCatchUpCursors(state: PlatformContext['state']): CatchUpCursors {
  const cursors = new Map<string, Cursor>();
  // every channel written to the stored list, accepts still in flight included: each list written
  // holds every earlier one's channels, whatever order concurrent accepts commit in
  const listed = new Set<string>();
  for (const channelId of readChannels(state)) {
    const cursor = parseCursor(state.get(cursorKey(channelId)));
    if (cursor === undefined) continue;
    cursors.set(channelId, cursor);
    listed.add(channelId);
  }
  /** adds a channel to the list; past the cap the least recently active one leaves it */
  const list = (channelId: string): string => {
    listed.add(channelId);
    if (listed.size > MAX_CHANNELS) {
      let oldest: string | undefined;
      for (const id of listed) {
        const at = cursors.get(id)?.lastId;
        if (id === channelId || at === undefined) continue;
        if (oldest === undefined || snowflakeAfter(cursors.get(oldest)?.lastId ?? '0', at)) oldest = id;
      }
      if (oldest !== undefined) {
        listed.delete(oldest);
        cursors.delete(oldest);
        // the list written with this accept no longer names it; a restart before that commits
        // skips a listed channel without a cursor
        state.delete(cursorKey(oldest));
      }
    }
    return JSON.stringify([...listed]);
  };
  const newer = (channelId: string, messageId: string): boolean => {
    const earlier = cursors.get(channelId);
    return earlier === undefined || snowflakeAfter(messageId, earlier.lastId);
  };
  return {
    list: () => [...cursors.entries()].sort(([, a], [, b]) => (snowflakeAfter(a.lastId, b.lastId) ? -1 : 1)),
    stateWith: (channelId, messageId, guildId) => {
      if (!newer(channelId, messageId)) return {};
      return {
        [cursorKey(channelId)]: cursorText(messageId, guildId),
        ...(listed.has(channelId) ? {} : { [CHANNELS_KEY]: list(channelId) }),
      };
    },
    advance: (channelId, messageId, guildId) => {
      if (!newer(channelId, messageId) || !listed.has(channelId)) return;
      cursors.set(channelId, guildId === undefined ? { lastId: messageId } : { lastId: messageId, guildId });
    },
    drop: (channelId) => {
      if (!listed.delete(channelId)) return;
      cursors.delete(channelId);
      state.set(CHANNELS_KEY, JSON.stringify([...listed]));
      state.delete(cursorKey(channelId));
    },
  };
}
