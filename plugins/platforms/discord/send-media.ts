/**
 * OutboundMedia → a channel message with the file attached (discord.js REST's multipart upload:
 * `payload_json` plus `files[0]`). Discord shows an image inline; the outbox row's key goes as
 * `nonce` with `enforce_nonce`, so a repeated upload posts once, as for text.
 */
import { readFile } from 'node:fs/promises';
import type { OutboundMedia, SendResult } from '@hermes/protocol';
import { type REST, Routes } from 'discord.js';
import { messageBody } from './message-body.js';
import { toSendFailure } from './send-errors.js';

export { DISCORD_MAX_UPLOAD_BYTES } from './capabilities.js';

/** Uploads one file to the chat (the thread's own channel for a thread); never throws. */
export async function sendMedia(
  context: { rest: REST; suppressEmbeds: boolean },
  media: OutboundMedia,
): Promise<SendResult> {
  const channelId = media.threadId ?? media.chatId;
  const body = {
    ...messageBody('', {
      suppressEmbeds: false, // the flag hides the attachment's preview too
      ...(media.replyToMessageId === undefined ? {} : { replyTo: media.replyToMessageId }),
      ...(media.idempotencyKey === undefined ? {} : { nonce: media.idempotencyKey.slice(0, 25) }),
    }),
    attachments: [{ id: 0, filename: media.fileName }],
  };
  try {
    const data = await readFile(media.path);
    const response = await context.rest.post(Routes.channelMessages(channelId), {
      body,
      files: [{ name: media.fileName, data, contentType: media.mimeType }],
    });
    const id =
      typeof response === 'object' && response !== null && 'id' in response && typeof response.id === 'string'
        ? response.id
        : undefined;
    return { ok: true, messageIds: id === undefined ? [] : [id] };
  } catch (error) {
    return toSendFailure(error);
  }
}
