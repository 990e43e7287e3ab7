/** The files a Telegram message carries, as Attachments still to download. */
import { pendingAttachment } from '@hermes/plugin-sdk';
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

function pending(file: FileLike, kind: Attachment['kind'], fallbackName: string, mimeType?: string): PendingFile {
  const { fileName, attachment } = pendingAttachment({
    name: file.file_name ?? fallbackName,
    mimeType: file.mime_type ?? mimeType,
    size: file.file_size,
    kind,
  });
  return { fileId: file.file_id, fileUniqueId: file.file_unique_id, fileName, attachment };
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
