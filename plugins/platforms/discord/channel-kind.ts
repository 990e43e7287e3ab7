/** What kind of chat a channel is for the gateway: a DM, a group (guild text channel) or a thread. */
import type { ChatType } from '@hermes/protocol';

export type ChannelKind = Extract<ChatType, 'dm' | 'group' | 'thread'>;

/** Discord channel types (https://discord.com/developers/docs/resources/channel#channel-object-channel-types). */
const DM = 1;
const THREAD_TYPES = new Set([10, 11, 12]);

/** DM (type 1) → 'dm'; announcement, public and private threads → 'thread'; anything else → 'group'. */
export function kindOfChannelType(type: number): ChannelKind {
  if (type === DM) return 'dm';
  return THREAD_TYPES.has(type) ? 'thread' : 'group';
}

/**
 * The kind of a message's channel: from the gateway's `channel_type` when sent; a message without a
 * guild is a DM; otherwise the channel's type from `lookup` (cache, then REST), 'group' if unknown.
 */
export async function resolveChannelKind(
  message: { channelId: string; guildId?: string; channelType?: number },
  lookup: (channelId: string) => Promise<number | undefined>,
): Promise<ChannelKind> {
  if (message.channelType !== undefined) return kindOfChannelType(message.channelType);
  if (message.guildId === undefined) return 'dm';
  const type = await lookup(message.channelId);
  return type === undefined ? 'group' : kindOfChannelType(type);
}
