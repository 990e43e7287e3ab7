/** The files a Discord message carries, as Attachments still to download. */
import type { Attachment } from '@hermes/protocol';
import type { InboundAttachment, InboundMessage } from './payload.js';

/** One file to fetch from its CDN URL; `attachment.path` is filled once it is downloaded. */
export interface PendingAttachment {
  id: string;
  url: string;
  /** the name in the cache folder, without the attachment-id prefix */
  fileName: string;
  /** the size Discord reported, when it did */
  size?: number;
  attachment: Attachment;
}

/** A file name safe for the cache folder: a plain base name of letters, digits, dots, dashes, underscores. */
export function safeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '');
  return cleaned.slice(-100) || 'file';
}

/** image/* → photo, audio/* → audio, video/* → video, anything else → document. */
export function attachmentKind(contentType: string | undefined): Attachment['kind'] {
  const major = contentType?.split('/')[0]?.toLowerCase();
  if (major === 'image') return 'photo';
  if (major === 'audio') return 'audio';
  if (major === 'video') return 'video';
  return 'document';
}

function pending(file: InboundAttachment): PendingAttachment {
  const fileName = safeFileName(file.filename);
  const mimeType = file.contentType?.split(';')[0]?.trim();
  return {
    id: file.id,
    url: file.url,
    fileName,
    ...(file.size === undefined ? {} : { size: file.size }),
    attachment: {
      kind: attachmentKind(mimeType),
      path: null,
      fileName,
      ...(mimeType === undefined || mimeType === '' ? {} : { mimeType }),
      ...(file.size === undefined ? {} : { size: file.size }),
    },
  };
}

/** Lists a message's attachments, in order. */
export function messageAttachments(message: InboundMessage): PendingAttachment[] {
  return message.attachments.map(pending);
}
