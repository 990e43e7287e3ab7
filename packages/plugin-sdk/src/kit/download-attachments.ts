/**
 * Downloading a message's files before its event is accepted: each file that arrives gets its
 * `attachment.path`; one that fails is reported and left with `path: null`, so the message is
 * still delivered rather than blocking the chat.
 */
import type { Attachment } from '@hermes/protocol';

export interface DownloadAttachmentsOptions<F> {
  /** stop()'s signal: once aborted, the remaining files are not fetched */
  signal: AbortSignal;
  /** told of a file that could not be downloaded (not called for an abort) */
  onFailure(error: unknown, file: F): void;
}

/**
 * Fetches each file in order with `download` (resolving with the cached path). Resolves true when
 * every file was tried, false when the signal aborted a download (the event should then not be
 * delivered).
 */
export async function downloadAttachments<F extends { attachment: Attachment }>(
  files: readonly F[],
  download: (file: F) => Promise<string>,
  options: DownloadAttachmentsOptions<F>,
): Promise<boolean> {
  for (const file of files) {
    try {
      file.attachment.path = await download(file);
    } catch (error) {
      if (options.signal.aborted) return false;
      options.onFailure(error, file);
    }
  }
  return true;
}
