/** One update end to end: normalize, download its files, hand the event to the sink. */
import type { AttachmentFetcher } from '@hermes/plugin-sdk';
import type { InboundSink, Logger } from '@hermes/protocol';
import type { Update } from 'grammy/types';
import type { PendingFile } from './attachments.js';
import type { BotIdentity } from './bot-identity.js';
import { updateProblem } from './check-update.js';
import { normalizeUpdate } from './normalize.js';

export interface DeliveryOptions {
  sink: InboundSink;
  bot: BotIdentity;
  logger: Logger;
  attachments: AttachmentFetcher<PendingFile>;
  now: () => number;
  /** a button press (callback_query): answered, never stored */
  onCallbackQuery: (query: NonNullable<Update['callback_query']>) => Promise<void>;
}

/**
 * Resolves once the sink accepted the event (or the update needs no event); rejects when the sink
 * or an abort fails it, so the caller must not confirm the update. `state` (the next offset) goes to
 * the sink with the event, to be persisted in the same transaction. A file that cannot be
 * downloaded is delivered with `path: null` rather than blocking the chat.
 */
export async function deliverUpdate(
  update: Update,
  options: DeliveryOptions,
  signal: AbortSignal,
  state?: Record<string, string>,
): Promise<void> {
  const problem = updateProblem(update);
  if (problem !== null) {
    options.logger.warn({ updateId: update.update_id, problem }, `telegram: malformed update skipped: ${problem}`);
    return;
  }
  if (update.callback_query !== undefined) {
    await options.onCallbackQuery(update.callback_query);
    return;
  }
  const normalized = normalizeUpdate(update, options.bot, options.now());
  if (normalized === null) {
    options.logger.debug({ updateId: update.update_id }, 'telegram: update ignored');
    return;
  }
  const downloaded = await options.attachments.fetchAll(normalized.files, signal, (file) => ({
    updateId: update.update_id,
    fileId: file.fileId,
  }));
  // stopped mid-download: the update is not confirmed, so it is fetched again after a restart
  if (!downloaded) throw new Error(`telegram: stopped before update ${update.update_id} was delivered`);
  await options.sink.accept(normalized.event, state === undefined ? undefined : { state });
}
