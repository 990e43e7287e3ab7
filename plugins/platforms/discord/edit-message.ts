/**
 * Streamed answers and reactions: a channel message edited (PATCH), the bot's own reaction added
 * (PUT .../reactions/:emoji/@me) and the one it replaces removed. Never throws.
 */
import type { EditMessage, Reaction, SendResult } from '@hermes/protocol';
import { type REST, Routes } from 'discord.js';
import { toSendFailure } from './send-errors.js';

/** The Discord message id inside a gateway message id (`<channel>:<id>` or a bare id). */
const discordId = (id: string): string => id.slice(id.lastIndexOf(':') + 1);

export async function editMessage(rest: REST, message: EditMessage): Promise<SendResult> {
  const channelId = message.threadId ?? message.chatId;
  try {
    await rest.patch(Routes.channelMessage(channelId, discordId(message.messageId)), {
      body: { content: message.text, allowed_mentions: { parse: [] } },
    });
    return { ok: true, messageIds: [message.messageId] };
  } catch (error) {
    return toSendFailure(error);
  }
}

export async function setReaction(rest: REST, reaction: Reaction): Promise<SendResult> {
  const channelId = reaction.threadId ?? reaction.chatId;
  const messageId = discordId(reaction.messageId);
  try {
    if (reaction.replaces !== undefined) {
      await rest.delete(Routes.channelMessageOwnReaction(channelId, messageId, encodeURIComponent(reaction.replaces)));
    }
    await rest.put(Routes.channelMessageOwnReaction(channelId, messageId, encodeURIComponent(reaction.emoji)));
    return { ok: true, messageIds: [reaction.messageId] };
  } catch (error) {
    return toSendFailure(error);
  }
}
