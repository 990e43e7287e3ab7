/**
 * The end of a streamed answer: the whole answer is formatted, split and written to the outbox
 * first (with the transcript, like any answer), then each chunk is an edit of the message the
 * stream showed it in, or a new message past the streamed ones. The outbox row is marked sent with
 * the edited message's id. A 429 or 5xx on an edit is waited out; an edit the platform refuses
 * otherwise (the message was deleted, ...) falls back to sending the chunk as a new message, so the
 * final text is never lost. After a restart, the rows not yet marked are edited again (an edit is
 * idempotent), so the user ends with one complete answer.
 */
import type { PlatformAdapter, SendResult } from '@hermes/protocol';
import { commitFor, type UnitOfWork } from '@hermes/store';
import {
  answerPieces,
  type DeliveryOptions,
  type DeliveryResult,
  type DeliveryTarget,
  type DeliveryWrites,
  deliver,
  outboxRows,
  outgoingRow,
  resendDelayMs,
  resendPending,
  SEND_MAX_ATTEMPTS,
  sendRow,
  type WrittenRow,
} from './deliver.js';
import type { StreamIds } from './stream-ids.js';

/** What a streamed message past the final answer's chunks is edited to (the answer got shorter). */
export const SUPERSEDED_TEXT = '…';

interface Row {
  id: number;
  createdAt: number;
  text: string;
  formatted: boolean;
  chunkIndex: number;
  mayRepeat: boolean;
  /** a file to upload (`text` its path): sent, never edited into a streamed message */
  media?: boolean;
}

/** Delivers the final text of a streamed answer over the messages the stream sent (`streamedIds`). */
export async function deliverStreamed(
  options: DeliveryOptions,
  target: DeliveryTarget,
  markdown: string,
  streamedIds: readonly string[],
  writes: DeliveryWrites = {},
): Promise<DeliveryResult> {
  const adapter = options.adapters.get(target.platform);
  if (!adapter?.edit || streamedIds.length === 0) return deliver(options, target, markdown, writes);
  // the text chunks are edited into the streamed messages; files (MEDIA lines) follow as their own rows
  const pieces = await answerPieces(options, adapter, markdown, writes.media, target.mediaOwner);
  const textChunks = pieces.filter((piece) => !piece.media).length;
  const enqueued = await commitFor(options.commit, writes.withEnqueue ?? [], {
    kind: 'outbox.enqueue',
    rows: outboxRows(target, pieces),
  });
  // streamed messages the final answer does not reach (its last step was shorter): emptied first
  for (const extra of streamedIds.slice(textChunks)) {
    await editWithRetry(options, adapter, target, extra, { text: SUPERSEDED_TEXT, formatted: false });
  }
  const rows: Row[] = enqueued.flatMap((row, i) => {
    const piece = pieces[i];
    if (row.sent || !piece) return [];
    return [{ id: row.id, createdAt: row.createdAt, ...piece, chunkIndex: i, mayRepeat: row.existed === true }];
  });
  const result: DeliveryResult = { sent: 0, failed: 0, errors: [] };
  if (rows.length === 0 && writes.onSettled) await options.commit(writes.onSettled);
  await settleRows(options, adapter, target, rows, streamedIds, result, writes.onSettled);
  return result;
}

/** Crash recovery of a written answer: a streamed one edits its messages, any other sends its unsent rows. */
export async function resendAnswer(
  options: DeliveryOptions,
  target: DeliveryTarget & { inboxId: number },
  written: readonly WrittenRow[],
  ids: StreamIds,
): Promise<DeliveryResult> {
  const streamed = await ids.read(target.platform, target.inboxId);
  if (streamed.length === 0) return resendPending(options, target, written);
  return resendStreamed(options, target, written, streamed, [ids.clear(target.platform, target.inboxId)]);
}

/** Crash recovery of a streamed answer: its unsent outbox rows edit the streamed messages again. */
export async function resendStreamed(
  options: DeliveryOptions,
  target: DeliveryTarget,
  written: readonly WrittenRow[],
  streamedIds: readonly string[],
  onSettled?: UnitOfWork,
): Promise<DeliveryResult> {
  const result: DeliveryResult = { sent: 0, failed: 0, errors: [] };
  const adapter = options.adapters.get(target.platform);
  if (!adapter) {
    if (onSettled) await options.commit(onSettled);
    return { sent: 0, failed: written.length, errors: [`platform ${target.platform} is not connected`] };
  }
  const rows = [...written]
    .filter((row) => row.status !== 'sent')
    .sort((a, b) => a.chunkIndex - b.chunkIndex)
    .map((row) => ({ ...row, mayRepeat: true, media: row.kind === 'media' }));
  if (rows.length === 0 && onSettled) await options.commit(onSettled);
  await settleRows(options, adapter, target, rows, streamedIds, result, onSettled);
  return result;
}

async function settleRows(
  options: DeliveryOptions,
  adapter: PlatformAdapter,
  target: DeliveryTarget,
  rows: readonly Row[],
  streamedIds: readonly string[],
  result: DeliveryResult,
  onSettled: UnitOfWork | undefined,
): Promise<void> {
  for (const [n, row] of rows.entries()) {
    const settle = n === rows.length - 1 ? onSettled : undefined;
    const messageId = row.media ? undefined : streamedIds[row.chunkIndex];
    const edited = messageId === undefined ? null : await editWithRetry(options, adapter, target, messageId, row);
    if (edited?.ok && messageId !== undefined) {
      await options.commit([{ kind: 'outbox.markSent', id: row.id, platformMessageId: messageId }, ...(settle ?? [])]);
      options.observer?.messageSent(target.platform);
      result.sent++;
      continue;
    }
    if (edited && !edited.ok) {
      options.logger.warn(
        { platform: target.platform, chatId: target.chatId, error: `${edited.error}: ${edited.message}` },
        'streamed answer: the final edit failed; sending the text as a new message',
      );
    }
    const first = !row.media && row.chunkIndex === 0 && messageId === undefined;
    await sendRow(
      options,
      adapter,
      target,
      outgoingRow(row, { first, mayRepeat: row.mayRepeat, media: row.media === true }),
      result,
      settle,
    );
  }
}

/** One edit, a 429 or a 500/502/503 waited out and tried again (as a send would be). */
async function editWithRetry(
  options: DeliveryOptions,
  adapter: PlatformAdapter,
  target: DeliveryTarget,
  messageId: string,
  content: { text: string; formatted: boolean },
): Promise<SendResult> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  let outcome: SendResult = { ok: false, error: 'transient', message: 'not tried' };
  for (let attempt = 1; attempt <= SEND_MAX_ATTEMPTS && adapter.edit; attempt++) {
    await options.rateLimiter?.wait(target.platform, target.chatId, adapter.capabilities.sendRate, sleep);
    outcome = await adapter.edit({
      chatId: target.chatId,
      messageId,
      text: content.text,
      formatted: content.formatted,
      ...(target.threadId ? { threadId: target.threadId } : {}),
    });
    if (outcome.ok) return outcome;
    const delayMs = resendDelayMs(outcome, attempt);
    if (delayMs === null || attempt === SEND_MAX_ATTEMPTS) return outcome;
    if (outcome.error === 'rate_limited') options.observer?.rateLimited(target.platform);
    await sleep(delayMs);
  }
  return outcome;
}
