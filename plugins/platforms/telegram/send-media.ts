/**
 * OutboundMedia → sendPhoto (an image within Telegram's 10 MB photo limit), sendVoice (a voice note:
 * an Ogg Opus file) or sendDocument, a multipart upload of the file; a photo Telegram refuses (its
 * dimensions) and a voice note it refuses (the user does not take voice messages) are sent again as
 * a document.
 */
import type { OutboundMedia, SendResult } from '@hermes/protocol';
import { type Api, InputFile } from 'grammy';
import { TELEGRAM_MAX_PHOTO_BYTES } from './capabilities.js';
import { telegramMessageId, telegramThreadId, toMessageId } from './message-ids.js';
import { toSendFailure } from './send-errors.js';

export { TELEGRAM_MAX_PHOTO_BYTES, TELEGRAM_MAX_UPLOAD_BYTES } from './capabilities.js';

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

/** A voice note Telegram will not take as one (a 400: VOICE_MESSAGES_FORBIDDEN, a file it cannot play). */
function voiceRefused(result: SendResult): boolean {
  return !result.ok && result.error === 'bad_format';
}

/** Uploads one file; never throws. */
export async function sendMedia(api: Api, media: OutboundMedia): Promise<SendResult> {
  const file = () => new InputFile(media.path, media.fileName);
  const attempt = async (call: () => Promise<{ message_id: number }>): Promise<SendResult> => {
    try {
      return { ok: true, messageIds: [toMessageId(media.chatId, (await call()).message_id)] };
    } catch (error) {
      return toSendFailure(error);
    }
  };
  if (media.kind === 'image' && media.size <= TELEGRAM_MAX_PHOTO_BYTES) {
    const result = await attempt(() => api.sendPhoto(media.chatId, file(), options(media)));
    if (!photoRefused(result)) return result;
  }
  if (media.kind === 'voice') {
    const result = await attempt(() => api.sendVoice(media.chatId, file(), options(media)));
    if (!voiceRefused(result)) return result;
  }
  return attempt(() => api.sendDocument(media.chatId, file(), options(media)));
}
