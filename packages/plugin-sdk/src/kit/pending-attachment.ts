/**
 * Describing a file a message carries before it is downloaded: a name safe for the cache folder,
 * its kind from the MIME type, and the Attachment the event lists (`path: null` until downloaded).
 */
import type { Attachment } from '@hermes/protocol';

/** A file name safe for the cache folder: a plain base name of letters, digits, dots, dashes, underscores. */
export function safeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '');
  return cleaned.slice(-100) || 'file';
}

/** image/* → photo, audio/* → audio, video/* → video (any case), anything else → document. */
export function attachmentKind(mimeType: string | undefined): Attachment['kind'] {
  const major = mimeType?.split('/')[0]?.toLowerCase();
  if (major === 'image') return 'photo';
  if (major === 'audio') return 'audio';
  if (major === 'video') return 'video';
  return 'document';
}

/** What the platform says about a file. */
export interface FileFacts {
  /** the name the platform gives (any path is dropped, unsafe characters replaced) */
  name: string;
  mimeType?: string | undefined;
  size?: number | undefined;
  /** the kind when the platform says it; else it comes from the MIME type */
  kind?: Attachment['kind'];
}

/** The safe file name and the not-yet-downloaded Attachment of one file. */
export function pendingAttachment(file: FileFacts): { fileName: string; attachment: Attachment } {
  const fileName = safeFileName(file.name);
  return {
    fileName,
    attachment: {
      kind: file.kind ?? attachmentKind(file.mimeType),
      path: null,
      fileName,
      ...(file.mimeType === undefined ? {} : { mimeType: file.mimeType }),
      ...(file.size === undefined ? {} : { size: file.size }),
    },
  };
}
