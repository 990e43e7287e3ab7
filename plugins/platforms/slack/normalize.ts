/** A checked Slack message → MessageEvent: a pure translation that keeps the raw event body. */
import { type UserMessage, userMessage } from '@hermes/plugin-sdk';
import type { ChatType, SessionSource } from '@hermes/protocol';
import { type PendingFile, pendingFile } from './attachments.js';
import { cleanText, mentionsBot } from './mentions.js';
import { toMessageId } from './message-ids.js';
import type { SlackMessage } from './slack-message.js';

export const PLATFORM = 'slack';

/** Who the bot is, from auth.test. */
export interface BotIdentity {
  userId: string;
  botId: string;
  teamId: string;
}

export interface NormalizeContext {
  bot: BotIdentity;
  strictMention: boolean;
  /** true when the bot already posted in the thread `threadTs` of `channel` */
  answeredThread(channel: string, threadTs: string): boolean;
  userName?: string;
  now: number;
}

/** The event, and the files whose attachments still need downloading (their `path` is null). */
export type NormalizedMessage = UserMessage<PendingFile>;

function isDirect(message: SlackMessage): boolean {
  if (message.channelType !== undefined) return message.channelType === 'im';
  return message.channel.startsWith('D'); // app_mention carries no channel_type; DM channel ids start with D
}

/**
 * Where the answer goes and which session it is: a DM answers in place (or in the DM thread it
 * came from); a channel message answers in its thread, so each top-level message starts a thread
 * (threadId = its ts) and a message inside a thread is a 'thread' event of that thread.
 */
function placeOf(message: SlackMessage): { chatType: ChatType; threadId?: string } {
  if (isDirect(message))
    return { chatType: 'dm', ...(message.threadTs === undefined ? {} : { threadId: message.threadTs }) };
  if (message.threadTs !== undefined && message.threadTs !== message.ts) {
    return { chatType: 'thread', threadId: message.threadTs };
  }
  return { chatType: 'group', threadId: message.ts };
}

/** Translates a message; the bot's own messages and empty ones give `{ ignored }`. */
export function normalizeSlackMessage(
  message: SlackMessage,
  raw: unknown,
  context: NormalizeContext,
): NormalizedMessage | { ignored: string } {
  if (message.user === context.bot.userId) return { ignored: 'own message' };
  const text = cleanText(message.text, context.bot.userId);
  const files = message.files.map(pendingFile);
  if (text === '' && files.length === 0) return { ignored: 'empty message' };
  const place = placeOf(message);
  const mentioned = message.type === 'app_mention' || mentionsBot(message.text, context.bot.userId);
  const inBotThread =
    place.chatType === 'thread' &&
    place.threadId !== undefined &&
    (message.parentUserId === context.bot.userId || context.answeredThread(message.channel, place.threadId));
  const source: SessionSource = {
    platform: PLATFORM,
    chatId: message.channel,
    ...place,
    userId: message.user,
    ...(context.userName === undefined ? {} : { userName: context.userName }),
    mentioned,
    repliedToBot: inBotThread && !context.strictMention,
  };
  return userMessage(
    { messageId: toMessageId(message.channel, message.ts), source, receivedAt: context.now, raw, text },
    files,
  );
}
