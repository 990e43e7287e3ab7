/** A parsed MESSAGE_CREATE → MessageEvent: a pure translation that keeps the raw payload. */
import { type UserMessage, userMessage } from '@hermes/plugin-sdk';
import type { SessionSource } from '@hermes/protocol';
import { messageAttachments, type PendingAttachment } from './attachments.js';
import type { BotIdentity } from './bot-identity.js';
import type { ChannelKind } from './channel-kind.js';
import { mentionsBot, readableText } from './mentions.js';
import type { InboundMessage } from './payload.js';

export const PLATFORM = 'discord';

/** Message types that carry a user's words: DEFAULT (0) and REPLY (19); the rest are system messages. */
const USER_MESSAGE_TYPES = new Set([0, 19]);

/** The event, and the attachments still to download (their `path` is null). */
export type NormalizedMessage = UserMessage<PendingAttachment>;

export interface NormalizeContext {
  bot: BotIdentity;
  kind: ChannelKind;
  /** the bot's managed role in the message's guild, when known */
  botRoleId?: string;
}

/** True for messages the bot never answers: from bots (itself included), webhooks, and system messages. */
export function isIgnored(message: InboundMessage, bot: BotIdentity): boolean {
  return (
    message.author.bot ||
    message.author.id === bot.id ||
    message.webhookId !== undefined ||
    !USER_MESSAGE_TYPES.has(message.type)
  );
}

function sourceOf(message: InboundMessage, context: NormalizeContext): SessionSource {
  const { author } = message;
  const userName = author.globalName ?? (author.username || undefined);
  return {
    platform: PLATFORM,
    chatId: message.channelId,
    chatType: context.kind,
    ...(context.kind === 'thread' ? { threadId: message.channelId } : {}),
    userId: author.id,
    ...(userName === undefined ? {} : { userName }),
    mentioned: mentionsBot(message, context.bot, context.botRoleId),
    repliedToBot: message.referencedAuthorId === context.bot.id,
  };
}

/**
 * Translates a user's message; null for ignored ones (see isIgnored) and for messages with neither
 * text nor files. A thread is its own chat (chatId = threadId = the thread's channel id).
 */
export function normalizeMessage(
  message: InboundMessage,
  raw: unknown,
  context: NormalizeContext,
  now: number = Date.now(),
): NormalizedMessage | null {
  if (isIgnored(message, context.bot)) return null;
  const text = readableText(message, context.bot, context.botRoleId);
  const files = messageAttachments(message);
  if (text === '' && files.length === 0) return null;
  return userMessage({ messageId: message.id, source: sourceOf(message, context), receivedAt: now, raw, text }, files);
}
