/**
 * OutboundMedia → sendPhoto (an image within Telegram's 10 MB photo limit) or sendDocument, a
 * multipart upload of the file; a photo Telegram refuses (its dimensions) is sent again as a document.
 */
import type { OutboundMedia, SendResult } from '@hermes/protocol';
import { type Api, InputFile } from 'grammy';
import { telegramMessageId, telegramThreadId, toMessageId } from './message-ids.js';
import { toSendFailure } from './send-errors.js';

/** Bot API limits: photos up to 10 MB, other files up to 50 MB. */
export const TELEGRAM_MAX_PHOTO_BYTES = 10 * 1024 * 1024;
export const TELEGRAM_MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

type MediaOptions = NonNullable<Parameters<Api['sendDocument']>[2]>;

function options(media: OutboundMedia): MediaOptions {
  const threadId = telegramThreadId(media.threadId);
  const replyTo = media.replyToMessageId === undefined ? undefined : telegramMessageId(media.replyToMessageId);
  return {
    ...(threadId === undefined ? {} : { message_thread_id: threadId }),
    ...(replyTo === undefined ? {} : { reply_parameters: { message_id: replyTo, allow_sending_without_reply: true } }),
  };
}

/** A photo Telegram cannot take as a photo (dimensions, ratio, format): it goes as a document instead. */
function photoRefused(result: SendResult): boolean {
  return !result.ok && result.error === 'bad_format' && /PHOTO|IMAGE/i.test(result.message);
}

/** Uploads one file; never throws. */
export async function sendMedia(api: Api, media: OutboundMedia): Promise<SendResult> {
  const sent = (messageId: number): SendResult => ({ ok: true, messageIds: [toMessageId(media.chatId, messageId)] });
  const file = () => new InputFile(media.path, media.fileName);
  if (media.kind === 'image' && media.size <= TELEGRAM_MAX_PHOTO_BYTES) {
    let result: SendResult;
    try {
      result = sent((await api.sendPhoto(media.chatId, file(), options(media))).message_id);
    } catch (error) {
      result = toSendFailure(error);
    }
    if (!photoRefused(result)) return result;
  }
  try {
    return sent((await api.sendDocument(media.chatId, file(), options(media))).message_id);
  } catch (error) {
    return toSendFailure(error);
  }
}
