/** The files a Discord message carries, as Attachments still to download. */
import { pendingAttachment } from '@hermes/plugin-sdk';
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

function pending(file: InboundAttachment): PendingAttachment {
  // `image/png; charset=...` → `image/png`; an empty content type says nothing
  const mimeType = file.contentType?.split(';')[0]?.trim() || undefined;
  const { fileName, attachment } = pendingAttachment({ name: file.filename, mimeType, size: file.size });
  return {
    id: file.id,
    url: file.url,
    fileName,
    ...(file.size === undefined ? {} : { size: file.size }),
    attachment,
  };
}

/** Lists a message's attachments, in order. */
export function messageAttachments(message: InboundMessage): PendingAttachment[] {
  return message.attachments.map(pending);
}
