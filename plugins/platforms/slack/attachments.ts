/** The files a Slack message carries, as Attachments still to download. */
import type { Attachment } from '@hermes/protocol';
import type { SlackFileRef } from './slack-message.js';

/** One file to fetch from its url_private; `attachment.path` is filled once it is downloaded. */
export interface PendingFile {
  ref: SlackFileRef;
  /** the name in the cache folder: `<file id>-<safe name>` */
  cacheName: string;
  attachment: Attachment;
}

/** A file name safe for the cache folder: a plain base name of letters, digits, dots, dashes, underscores. */
export function safeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '');
  return cleaned.slice(-100) || 'file';
}

/** photo / audio / video by MIME type, else document. */
export function attachmentKind(mimeType: string | undefined): Attachment['kind'] {
  if (mimeType?.startsWith('image/')) return 'photo';
  if (mimeType?.startsWith('audio/')) return 'audio';
  if (mimeType?.startsWith('video/')) return 'video';
  return 'document';
}

/** The pending download for one file reference. */
export function pendingFile(ref: SlackFileRef): PendingFile {
  const fileName = safeFileName(ref.name);
  return {
    ref,
    cacheName: `${safeFileName(ref.id)}-${fileName}`,
    attachment: {
      kind: attachmentKind(ref.mimeType),
      path: null,
      fileName,
      ...(ref.mimeType === undefined ? {} : { mimeType: ref.mimeType }),
      ...(ref.size === undefined ? {} : { size: ref.size }),
    },
  };
}
