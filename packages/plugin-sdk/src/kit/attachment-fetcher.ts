/**
 * Downloading a message's files before its event is accepted: each file that arrives gets its
 * `attachment.path`; one that fails is logged and left with `path: null`, so the message is still
 * delivered rather than blocking the chat.
 */
import type { Attachment, Logger } from '@hermes/protocol';

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
}

export interface AttachmentFetcher<F> {
  /**
   * Downloads each file in order. Resolves true when every file was tried, false when `signal`
   * aborted a download (the event is then not delivered). `logFields` names a failed file in the
   * warning (its message and file ids).
   */
  fetchAll(files: readonly F[], signal: AbortSignal, logFields: (file: F) => Record<string, unknown>): Promise<boolean>;
}

const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Creates the fetcher an adapter's intake uses for every message. */
export function createAttachmentFetcher<F extends { attachment: Attachment }>(
  options: AttachmentFetcherOptions<F>,
): AttachmentFetcher<F> {
  const describe = options.describe ?? errorMessage;
  return {
    async fetchAll(files, signal, logFields) {
      for (const file of files) {
        const size = file.attachment.size;
        if (options.maxBytes !== undefined && size !== undefined && size > options.maxBytes) {
          options.logger.info(
            { size, maxBytes: options.maxBytes, ...logFields(file) },
            `${options.platform}: attachment over media.max_bytes; not downloaded`,
          );
          continue;
        }
        try {
          file.attachment.path = await options.download(file, signal);
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
