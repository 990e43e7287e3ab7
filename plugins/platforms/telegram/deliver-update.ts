/** One update end to end: normalize, download its files, hand the event to the sink. */
import type { AttachmentFetcher } from '@hermes/plugin-sdk';
import type { InboundSink, Logger } from '@hermes/protocol';
import type { Update } from 'grammy/types';
import { mergeAlbum } from './album.js';
import type { PendingFile } from './attachments.js';
import type { BotIdentity } from './bot-identity.js';
import { updateProblem } from './check-update.js';
import { type NormalizedUpdate, normalizeUpdate } from './normalize.js';

export interface DeliveryOptions {
  sink: InboundSink;
  bot: BotIdentity;
  logger: Logger;
  attachments: AttachmentFetcher<PendingFile>;
  now: () => number;
  /** a button press (callback_query): answered, never stored */
  onCallbackQuery: (query: NonNullable<Update['callback_query']>) => Promise<void>;
  /** `group_allowed_chats`: the only group chats served; null: every group (direct messages always) */
  groupAllowedChats?: ReadonlySet<string> | null;
}

/** Whether a message's chat is served: any direct message; a group only when listed (or no list is set). */
function groupAllowed(normalized: NormalizedUpdate, allowed: ReadonlySet<string> | null): boolean {
  const { chatType, chatId } = normalized.event.source;
  return allowed === null || chatType === 'dm' || allowed.has(chatId);
}

/**
 * Resolves once the sink accepted the event (or the update needs no event); rejects when the sink
 * or an abort fails it, so the caller must not confirm the update. `state` (the next offset) goes to
 * the sink with the event, to be persisted in the same transaction. A file that cannot be
 * downloaded is delivered with `path: null` rather than blocking the chat.
 */
export async function deliverUpdate(
  update: Update | readonly Update[],
  options: DeliveryOptions,
  signal: AbortSignal,
  state?: Record<string, string>,
): Promise<void> {
  const updates: readonly Update[] = Array.isArray(update) ? update : [update as Update];
  const members: NormalizedUpdate[] = [];
  for (const one of updates) {
    const problem = updateProblem(one);
    if (problem !== null) {
      options.logger.warn({ updateId: one.update_id, problem }, `telegram: malformed update skipped: ${problem}`);
      continue;
    }
    if (one.callback_query !== undefined) {
      await options.onCallbackQuery(one.callback_query);
      continue;
    }
    const normalized = normalizeUpdate(one, options.bot, options.now());
    if (normalized === null) options.logger.debug({ updateId: one.update_id }, 'telegram: update ignored');
    else if (!groupAllowed(normalized, options.groupAllowedChats ?? null)) {
      const { chatId } = normalized.event.source;
      options.logger.debug({ updateId: one.update_id, chatId }, 'telegram: group not in group_allowed_chats: ignored');
    } else members.push(normalized);
  }
  // an album (several updates with one media_group_id) is one message
  const normalized = mergeAlbum(members);
  if (normalized === null) return;
  const updateId = updates.at(-1)?.update_id;
  const downloaded = await options.attachments.fetchAll(
    normalized.files,
    signal,
    (file) => ({ updateId, fileId: file.fileId }),
    normalized.event.source.userId, // a stranger's files are not stored
  );
  // stopped mid-download: the update is not confirmed, so it is fetched again after a restart
  if (!downloaded) throw new Error(`telegram: stopped before update ${updateId} was delivered`);
  await options.sink.accept(normalized.event, state === undefined ? undefined : { state });
}
