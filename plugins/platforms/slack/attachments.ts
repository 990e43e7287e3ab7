/** The files a Slack message carries, as Attachments still to download. */
import { pendingAttachment, safeFileName } from '@hermes/plugin-sdk';
import type { Attachment } from '@hermes/protocol';
import type { SlackFileRef } from './slack-message.js';

/** One file to fetch from its url_private; `attachment.path` is filled once it is downloaded. */
export interface PendingFile {
  ref: SlackFileRef;
  /** the name in the cache folder: `<file id>-<safe name>` */
  cacheName: string;
  attachment: Attachment;
}

/** The pending download for one file reference. */
export function pendingFile(ref: SlackFileRef): PendingFile {
  const { fileName, attachment } = pendingAttachment({ name: ref.name, mimeType: ref.mimeType, size: ref.size });
  return { ref, cacheName: `${safeFileName(ref.id)}-${fileName}`, attachment };
}
