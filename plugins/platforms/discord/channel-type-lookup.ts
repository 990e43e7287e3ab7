/** A channel's Discord type: discord.js's channel cache first, then GET /channels/:id, remembered (bounded). */
import type { Logger } from '@hermes/protocol';
import { type Client, type REST, Routes } from 'discord.js';
import { describeError } from './error-text.js';

/** channel types learned over REST, remembered up to this many channels */
export const CHANNEL_TYPES_MAX = 1_000;

export type ChannelTypeLookup = (client: Client, channelId: string) => Promise<number | undefined>;

function typeOf(channel: unknown): number | undefined {
  return typeof channel === 'object' && channel !== null && 'type' in channel && typeof channel.type === 'number'
    ? channel.type
    : undefined;
}

/** Creates the lookup; a channel that cannot be fetched is logged and reported as undefined. */
export function createChannelTypeLookup(rest: REST, logger: Logger): ChannelTypeLookup {
  const learned = new Map<string, number>();
  return async (client, channelId) => {
    const known = client.channels.cache.get(channelId)?.type ?? learned.get(channelId);
    if (known !== undefined) return known;
    try {
      const type = typeOf(await rest.get(Routes.channel(channelId)));
      if (type !== undefined) {
        if (learned.size >= CHANNEL_TYPES_MAX) learned.clear();
        learned.set(channelId, type);
      }
      return type;
    } catch (error) {
      logger.warn({ error: describeError(error), channelId }, 'discord: channel type unknown; treating it as a group');
      return undefined;
    }
  };
}
