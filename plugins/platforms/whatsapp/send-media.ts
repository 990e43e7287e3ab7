/**
 * A file as a native WhatsApp message: uploaded first (POST /{phone-number-id}/media, multipart),
 * then sent by its media id as an image (JPEG or PNG up to 5 MB), an audio message (a voice note
 * for Ogg Opus), a video (MP4, 3GPP) or else a document carrying its file name.
 */
import { openAsBlob } from 'node:fs';
import type { OutboundMedia, SendResult } from '@hermes/protocol';
import { toSendFailure } from './send-errors.js';
import { postMessage, type Sender } from './send-message.js';

/** the Cloud API's largest document; images up to 5 MB, audio and video up to 16 MB */
export const WHATSAPP_MAX_UPLOAD_BYTES = 100 * 1024 * 1024;
export const WHATSAPP_MAX_PHOTO_BYTES = 5 * 1024 * 1024;
const MAX_AUDIO_VIDEO_BYTES = 16 * 1024 * 1024;

const IMAGE_TYPES = new Set(['image/jpeg', 'image/png']);
const AUDIO_TYPES = new Set(['audio/aac', 'audio/amr', 'audio/mpeg', 'audio/mp4', 'audio/ogg']);
const VIDEO_TYPES = new Set(['video/mp4', 'video/3gpp']);

/** The message type a file goes as. */
export function mediaType(
  media: Pick<OutboundMedia, 'kind' | 'mimeType' | 'size'>,
): 'image' | 'audio' | 'video' | 'document' {
  const mime = media.mimeType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (media.kind === 'image' && IMAGE_TYPES.has(mime) && media.size <= WHATSAPP_MAX_PHOTO_BYTES) return 'image';
  if (media.size > MAX_AUDIO_VIDEO_BYTES) return 'document';
  if (AUDIO_TYPES.has(mime) && media.kind !== 'document') return 'audio';
  if (VIDEO_TYPES.has(mime) && media.kind !== 'document') return 'video';
  return 'document';
}

/** Uploads the file and sends it; never throws. */
export async function sendMedia(sender: Sender, media: OutboundMedia): Promise<SendResult> {
  const type = mediaType(media);
  let mediaId: string;
  try {
    const form = new FormData();
    form.append('messaging_product', 'whatsapp');
    form.append('type', media.mimeType);
    form.append('file', await openAsBlob(media.path, { type: media.mimeType }), media.fileName);
    const uploaded = await sender.graph.form(`${sender.phoneNumberId}/media`, form);
    if (typeof uploaded.id !== 'string') {
      return { ok: false, error: 'transient', message: 'POST /media answered without a media id', status: 200 };
    }
    mediaId = uploaded.id;
  } catch (error) {
    return toSendFailure(error);
  }
  const content = type === 'document' ? { id: mediaId, filename: media.fileName } : { id: mediaId };
  return postMessage(sender, media.chatId, { type, [type]: content }, media.replyToMessageId);
}
