/**
 * Buttons in a Telegram chat: an approval prompt, or a message with action buttons, as a message
 * with an inline keyboard; a press as a callback_query answered with answerCallbackQuery (its text
 * shown to the presser); the prompt's keyboard removed by editMessageText once it is answered.
 */
import { approvalButtons, pressApproval } from '@hermes/plugin-sdk';
import type { ApprovalPromptMessage, ButtonMessage, InboundSink, Logger, SendResult } from '@hermes/protocol';
import type { Api } from 'grammy';
import type { CallbackQuery } from 'grammy/types';
import { describeError } from './error-text.js';
import { telegramMessageId, telegramThreadId, toMessageId } from './message-ids.js';
import { PLATFORM } from './normalize.js';
import { toSendFailure } from './send-errors.js';

/** A plain-text message with one row of buttons (approval answers or action buttons). */
export async function sendButtons(
  api: Api,
  message: ButtonMessage & { replyToMessageId?: string | undefined },
): Promise<SendResult> {
  const threadId = telegramThreadId(message.threadId);
  const replyTo = message.replyToMessageId === undefined ? undefined : telegramMessageId(message.replyToMessageId);
  const row = message.buttons.map((b) => ({ text: b.label, callback_data: b.data }));
  try {
    const sent = await api.sendMessage(message.chatId, message.text, {
      reply_markup: { inline_keyboard: [row] },
      link_preview_options: { is_disabled: true },
      ...(threadId === undefined ? {} : { message_thread_id: threadId }),
      ...(replyTo === undefined
        ? {}
        : { reply_parameters: { message_id: replyTo, allow_sending_without_reply: true } }),
    });
    return { ok: true, messageIds: [toMessageId(message.chatId, sent.message_id)] };
  } catch (error) {
    return toSendFailure(error);
  }
}

export function askApproval(api: Api, prompt: ApprovalPromptMessage): Promise<SendResult> {
  return sendButtons(api, { ...prompt, buttons: approvalButtons(prompt.approvalId) });
}

/** Replaces the prompt's text with the outcome; without reply_markup the keyboard goes. */
export async function closeApproval(api: Api, chatId: string, messageId: string, text: string): Promise<void> {
  const id = telegramMessageId(messageId);
  if (id === undefined) return;
  await api.editMessageText(chatId, id, text);
}

/** A callback_query: a button press goes to the sink; every query is answered (it stops the spinner). */
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
