/** OutboundMessage → sendMessage, with the documented plain-text fallback for HTML Telegram refuses. */
import type { Logger, OutboundMessage, SendResult } from '@hermes/protocol';
import type { Api } from 'grammy';
import { htmlToPlain } from './html-to-plain.js';
import { telegramMessageId, telegramThreadId, toMessageId } from './message-ids.js';
import { isParseError, toSendFailure } from './send-errors.js';

type SendOptions = NonNullable<Parameters<Api['sendMessage']>[2]>;

function baseOptions(message: OutboundMessage): SendOptions {
  const threadId = telegramThreadId(message.threadId);
  const replyTo = message.replyToMessageId === undefined ? undefined : telegramMessageId(message.replyToMessageId);
  return {
    link_preview_options: { is_disabled: true },
    ...(threadId === undefined ? {} : { message_thread_id: threadId }),
    ...(replyTo === undefined ? {} : { reply_parameters: { message_id: replyTo, allow_sending_without_reply: true } }),
  };
}

/** Sends one message; never throws. A formatted text Telegram cannot parse is resent once as plain text. */
export async function sendMessage(api: Api, message: OutboundMessage, logger: Logger): Promise<SendResult> {
  const options = baseOptions(message);
  const sent = (messageId: number): SendResult => ({ ok: true, messageIds: [toMessageId(message.chatId, messageId)] });
  try {
    const parseMode: SendOptions = message.formatted ? { parse_mode: 'HTML' } : {};
    return sent((await api.sendMessage(message.chatId, message.text, { ...options, ...parseMode })).message_id);
  } catch (error) {
    if (!message.formatted || !isParseError(error)) return toSendFailure(error);
    logger.warn({ chatId: message.chatId }, 'telegram: HTML refused by Telegram; resending as plain text');
  }
  try {
    return sent((await api.sendMessage(message.chatId, htmlToPlain(message.text), options)).message_id);
  } catch (error) {
    return toSendFailure(error);
  }
}
