/**
 * Approvals in a Telegram chat: the prompt as a message with an inline keyboard, a press as a
 * callback_query answered with answerCallbackQuery (its text shown to the presser), and the
 * prompt's keyboard removed by editMessageText once it is answered.
 */
import { approvalButtons, pressApproval } from '@hermes/plugin-sdk';
import type { ApprovalPromptMessage, InboundSink, Logger, SendResult } from '@hermes/protocol';
import type { Api } from 'grammy';
import type { CallbackQuery } from 'grammy/types';
import { describeError } from './error-text.js';
import { telegramMessageId, telegramThreadId, toMessageId } from './message-ids.js';
import { PLATFORM } from './normalize.js';
import { toSendFailure } from './send-errors.js';

export async function askApproval(api: Api, prompt: ApprovalPromptMessage): Promise<SendResult> {
  const threadId = telegramThreadId(prompt.threadId);
  const replyTo = prompt.replyToMessageId === undefined ? undefined : telegramMessageId(prompt.replyToMessageId);
  const row = approvalButtons(prompt.approvalId).map((b) => ({ text: b.label, callback_data: b.data }));
  try {
    const sent = await api.sendMessage(prompt.chatId, prompt.text, {
      reply_markup: { inline_keyboard: [row] },
      link_preview_options: { is_disabled: true },
      ...(threadId === undefined ? {} : { message_thread_id: threadId }),
      ...(replyTo === undefined
        ? {}
        : { reply_parameters: { message_id: replyTo, allow_sending_without_reply: true } }),
    });
    return { ok: true, messageIds: [toMessageId(prompt.chatId, sent.message_id)] };
  } catch (error) {
    return toSendFailure(error);
  }
}

/** Replaces the prompt's text with the outcome; without reply_markup the keyboard goes. */
export async function closeApproval(api: Api, chatId: string, messageId: string, text: string): Promise<void> {
  const id = telegramMessageId(messageId);
  if (id === undefined) return;
  await api.editMessageText(chatId, id, text);
}

/** A callback_query: an approval press goes to the sink; every query is answered (it stops the spinner). */
export async function handleCallbackQuery(
  query: CallbackQuery,
  options: { api: Api; sink: InboundSink; logger: Logger },
): Promise<void> {
  const chatId = query.message?.chat.id;
  const chat = chatId === undefined ? undefined : String(chatId);
  const text = await pressApproval(options.sink, PLATFORM, query.data, String(query.from.id), chat);
  try {
    await options.api.answerCallbackQuery(query.id, { text });
  } catch (error) {
    // an old query (Telegram keeps them a few minutes) cannot be answered: the press counted anyway
    options.logger.debug({ error: describeError(error) }, 'telegram: answerCallbackQuery failed');
  }
}
