/** Telegram Update → MessageEvent: a pure translation that keeps the raw update. */
import { type UserMessage, userMessage } from '@hermes/plugin-sdk';
import type { ChatType, SessionSource } from '@hermes/protocol';
import type { Message, Update } from 'grammy/types';
import { messageFiles, type PendingFile } from './attachments.js';
import type { BotIdentity } from './bot-identity.js';
import { mentionsBot, stripCommandSuffix } from './mentions.js';
import { toMessageId } from './message-ids.js';

export const PLATFORM = 'telegram';

/** The event, and the files whose attachments still need downloading (their `path` is null). */
export type NormalizedUpdate = UserMessage<PendingFile>;

function chatTypeOf(message: Message): { chatType: ChatType; threadId?: string } {
  if (message.chat.type === 'private') return { chatType: 'dm' };
  if (message.is_topic_message === true && message.message_thread_id !== undefined) {
    return { chatType: 'thread', threadId: String(message.message_thread_id) };
  }
  return { chatType: 'group' };
}

function userNameOf(message: Message): string | undefined {
  const from = message.from;
  if (from === undefined) return message.sender_chat?.title;
  return from.username ?? ([from.first_name, from.last_name].filter(Boolean).join(' ') || undefined);
}

/** Translates a new message; edits, channel posts, service messages and other updates give null. */
export function normalizeUpdate(update: Update, bot: BotIdentity, now: number = Date.now()): NormalizedUpdate | null {
  const message = update.message;
  if (message === undefined) return null;
  const userId = message.from?.id ?? message.sender_chat?.id;
  if (userId === undefined) return null;
  const rawText = message.text ?? message.caption ?? '';
  const entities = message.entities ?? message.caption_entities ?? [];
  const files = messageFiles(message);
  if (rawText.trim() === '' && files.length === 0) return null;

  const userName = userNameOf(message);
  const source: SessionSource = {
    platform: PLATFORM,
    chatId: String(message.chat.id),
    ...chatTypeOf(message),
    userId: String(userId),
    ...(userName === undefined ? {} : { userName }),
    mentioned: mentionsBot(rawText, entities, bot),
    repliedToBot: message.reply_to_message?.from?.id === bot.id,
  };
  const text = stripCommandSuffix(rawText, bot);
  const messageId = toMessageId(message.chat.id, message.message_id);
  return userMessage({ messageId, source, receivedAt: now, raw: update, text }, files);
}
