/** The files a Telegram message carries, as Attachments still to download. */
import type { Attachment } from '@hermes/protocol';
import type { Message } from 'grammy/types';

/** One file to fetch with getFile; `attachment.path` is filled once it is downloaded. */
export interface PendingFile {
  fileId: string;
  fileUniqueId: string;
  /** the name in the cache folder, without the unique-id prefix */
  fileName: string;
  attachment: Attachment;
}

interface FileLike {
  file_id: string;
  file_unique_id: string;
  file_size?: number;
  file_name?: string;
  mime_type?: string;
}

/** A file name safe for the cache folder: a plain base name of letters, digits, dots, dashes, underscores. */
export function safeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '');
  return cleaned.slice(-100) || 'file';
}

function pending(file: FileLike, kind: Attachment['kind'], fallbackName: string, mimeType?: string): PendingFile {
  const fileName = safeFileName(file.file_name ?? fallbackName);
  const mime = file.mime_type ?? mimeType;
  return {
    fileId: file.file_id,
    fileUniqueId: file.file_unique_id,
    fileName,
    attachment: {
      kind,
      path: null,
      fileName,
      ...(mime === undefined ? {} : { mimeType: mime }),
      ...(file.file_size === undefined ? {} : { size: file.file_size }),
    },
  };
}

/** Lists the photo (its largest size), document, audio, voice and video of a message. */
export function messageFiles(message: Message): PendingFile[] {
  const files: PendingFile[] = [];
  const photo = message.photo?.reduce((best, size) =>
    size.width * size.height > best.width * best.height ? size : best,
  );
  if (photo !== undefined) files.push(pending(photo, 'photo', 'photo.jpg', 'image/jpeg'));
  if (message.document !== undefined) files.push(pending(message.document, 'document', 'document'));
  if (message.audio !== undefined) files.push(pending(message.audio, 'audio', 'audio.mp3'));
  if (message.voice !== undefined) files.push(pending(message.voice, 'audio', 'voice.ogg', 'audio/ogg'));
  if (message.video !== undefined) files.push(pending(message.video, 'video', 'video.mp4'));
  return files;
}
