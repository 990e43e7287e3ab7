/**
 * Streamed answers and reactions: editMessageText (the plain-text fallback for HTML Telegram
 * refuses, as for sends) and setMessageReaction. Never throws.
 */
import type { EditMessage, Logger, Reaction, SendResult } from '@hermes/protocol';
import { type Api, GrammyError } from 'grammy';
import type { ReactionTypeEmoji } from 'grammy/types';
import { htmlToPlain } from './html-to-plain.js';
import { telegramMessageId } from './message-ids.js';
import { isParseError, toSendFailure } from './send-errors.js';

/** Telegram's answer to an edit that changes nothing: the message already shows the text. */
const NOT_MODIFIED = /message is not modified/i;

type TelegramReaction = ReactionTypeEmoji['emoji'];

/**
 * Telegram accepts only its own list of reaction emoji, which has 👀 but neither ✅ nor ❌: those
 * become 👍 and 👎; any other emoji not on the list is refused by Telegram (a logged failure).
 */
export const TELEGRAM_REACTIONS: Readonly<Record<string, TelegramReaction>> = { '👀': '👀', '✅': '👍', '❌': '👎' };

const unmodified = (error: unknown): boolean =>
  error instanceof GrammyError && error.error_code === 400 && NOT_MODIFIED.test(error.description);

export async function editMessage(api: Api, message: EditMessage, logger: Logger): Promise<SendResult> {
  const id = telegramMessageId(message.messageId);
  if (id === undefined)
    return { ok: false, error: 'not_found', message: `not a Telegram message id: ${message.messageId}` };
  const ok: SendResult = { ok: true, messageIds: [message.messageId] };
  const options = { link_preview_options: { is_disabled: true } };
  try {
    await api.editMessageText(
      message.chatId,
      id,
      message.text,
      message.formatted ? { ...options, parse_mode: 'HTML' } : options,
    );
    return ok;
  } catch (error) {
    if (unmodified(error)) return ok;
    if (!message.formatted || !isParseError(error)) return toSendFailure(error);
    logger.warn({ chatId: message.chatId }, 'telegram: HTML refused by Telegram in an edit; editing as plain text');
  }
  try {
    await api.editMessageText(message.chatId, id, htmlToPlain(message.text), options);
    return ok;
  } catch (error) {
    return unmodified(error) ? ok : toSendFailure(error);
  }
}

/** Sets the bot's one reaction on a message (Telegram replaces the earlier one itself). */
export async function setReaction(api: Api, reaction: Reaction): Promise<SendResult> {
  const id = telegramMessageId(reaction.messageId);
  if (id === undefined)
    return { ok: false, error: 'not_found', message: `not a Telegram message id: ${reaction.messageId}` };
  const emoji = TELEGRAM_REACTIONS[reaction.emoji] ?? (reaction.emoji as TelegramReaction);
  try {
    await api.setMessageReaction(reaction.chatId, id, [{ type: 'emoji', emoji }]);
    return { ok: true, messageIds: [reaction.messageId] };
  } catch (error) {
    return toSendFailure(error);
  }
}
