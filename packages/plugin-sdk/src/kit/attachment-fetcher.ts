/**
 * Downloading a message's files before its event is accepted: each file that arrives gets its
 * `attachment.path`; one that fails is logged and left with `path: null`, so the message is still
 * delivered rather than blocking the chat.
 */
import { statSync } from 'node:fs';
import type { Attachment, DownloadGate, Logger } from '@hermes/protocol';

export interface AttachmentFetcherOptions<F> {
  /** the platform's name, the prefix of the warning */
  platform: string;
  logger: Logger;
  /** downloads one file into the attachment cache, resolving with its path */
  download(file: F, signal: AbortSignal): Promise<string>;
  /** an error's text for the log (default: its message); redact secrets here */
  describe?: (error: unknown) => string;
  /** a file whose reported size is larger is not downloaded (`path` stays null; the gateway tells the user) */
  maxBytes?: number | undefined;
  /** the gateway's rule for storing a sender's files (PlatformContext.downloads): strangers' never are */
  downloads?: DownloadGate | undefined;
}

export interface AttachmentFetcher<F> {
  /**
   * Downloads each file in order. Resolves true when every file was tried, false when `signal`
   * aborted a download (the event is then not delivered). `logFields` names a failed file in the
   * warning (its message and file ids). `sender`: the user id the files came from, asked of the
   * gateway's download gate before each file (a refused file keeps `path: null` and gets `refused`).
   */
  fetchAll(
    files: readonly F[],
    signal: AbortSignal,
    logFields: (file: F) => Record<string, unknown>,
    sender?: string,
  ): Promise<boolean>;
}

const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Creates the fetcher an adapter's intake uses for every message. */
export function createAttachmentFetcher<F extends { attachment: Attachment }>(
  options: AttachmentFetcherOptions<F>,
): AttachmentFetcher<F> {
  const describe = options.describe ?? errorMessage;
  return {
    async fetchAll(files, signal, logFields, sender) {
      const gate = sender === undefined ? undefined : options.downloads;
      for (const file of files) {
        const size = file.attachment.size;
        if (options.maxBytes !== undefined && size !== undefined && size > options.maxBytes) {
          options.logger.info(
            { size, maxBytes: options.maxBytes, ...logFields(file) },
            `${options.platform}: attachment over media.max_bytes; not downloaded`,
          );
          continue;
        }
        const refused = gate && sender !== undefined ? await gate.admit(sender, size) : null;
        if (refused !== null) {
          file.attachment.refused = refused;
          options.logger.info({ ...logFields(file) }, `${options.platform}: attachment not downloaded: ${refused}`);
          continue;
        }
        try {
          const path = await options.download(file, signal);
          file.attachment.path = path;
          if (gate && sender !== undefined) gate.record(sender, size ?? statSync(path).size);
        } catch (error) {
          if (signal.aborted) return false;
          options.logger.warn(
            { error: describe(error), ...logFields(file) },
            `${options.platform}: attachment download failed; delivering without it`,
          );
        }
      }
      return true;
    },
  };
}
