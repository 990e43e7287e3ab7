/**
 * The one delivery path: format for the platform, split at its limit, persist the chunks in the
 * outbox, send each, and mark it sent. Only a 429 (the send surely did not happen) is retried,
 * after the platform's retry-after; other failures are recorded, never blindly repeated.
 */
import type { Logger, PlatformAdapter, SendResult } from '@hermes/protocol';
import type { OutboxRowLike } from '../ports.js';
import { splitMessage } from './split-message.js';

export const SEND_MAX_ATTEMPTS = 5;
export const RETRY_AFTER_CAP_MS = 60_000;

/** The outbox operations delivery needs (the store's outbox satisfies them). */
export interface OutboxPort {
  enqueue(
    rows: {
      inboxId: number | null;
      platform: string;
      chatId: string;
      threadId: string | null;
      chunkIndex: number;
      text: string;
      formatted: boolean;
    }[],
  ): { id: number; sent: boolean }[];
  markSent(id: number, platformMessageId: string | null): unknown;
  markFailed(id: number, error: string): unknown;
  recordAttempt(id: number, error: string): unknown;
  forInbox(inboxId: number): OutboxRowLike[];
}

export interface DeliveryTarget {
  platform: string;
  chatId: string;
  threadId?: string;
  replyToMessageId?: string;
  /** the inbox row this answers, so a redone reply never duplicates chunks */
  inboxId?: number;
}

export interface DeliveryResult {
  sent: number;
  failed: number;
  errors: string[];
}

export interface DeliveryOptions {
  adapters: ReadonlyMap<string, PlatformAdapter>;
  outbox: OutboxPort;
  logger: Logger;
  /** commits `fn`'s synchronous store writes in one transaction (the gateway's group commit); default: runs it */
  commit?: <T>(fn: () => T) => Promise<T>;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * State writes that belong with the delivery, so they commit in the same transaction as it:
 * `withEnqueue` with the outbox rows (e.g. the transcript), `onSettled` with the last row's
 * sent/failed mark (e.g. the inbox row's done mark). Both synchronous.
 */
export interface DeliveryWrites {
  withEnqueue?: () => void;
  onSettled?: () => void;
}

/** Delivers Markdown text to a target through its platform's adapter. */
export async function deliver(
  options: DeliveryOptions,
  target: DeliveryTarget,
  markdown: string,
  writes: DeliveryWrites = {},
): Promise<DeliveryResult> {
  const tx = options.commit ?? (async <T>(fn: () => T): Promise<T> => fn());
  const adapter = options.adapters.get(target.platform);
  const result: DeliveryResult = { sent: 0, failed: 0, errors: [] };
  if (!adapter) {
    if (writes.withEnqueue || writes.onSettled)
      await tx(() => {
        writes.withEnqueue?.();
        writes.onSettled?.();
      });
    result.failed = 1;
    result.errors.push(`platform ${target.platform} is not connected`);
    return result;
  }
  const limit = adapter.capabilities.maxMessageLength;
  // split the Markdown first so formatting never cuts an entity in half, then format each chunk
  const chunks = splitMessage(markdown, Math.max(100, Math.floor(limit * 0.9))).map((chunk) => {
    const formatted = adapter.format(chunk);
    return formatted.length <= limit ? { text: formatted, formatted: true } : { text: chunk, formatted: false };
  });
  const rows = chunks.map((c, i) => ({
    inboxId: target.inboxId ?? null,
    platform: target.platform,
    chatId: target.chatId,
    threadId: target.threadId ?? null,
    chunkIndex: i,
    text: c.text,
    formatted: c.formatted,
  }));
  // with an inbox id, rows written before a restart are reused and the ones already sent skipped
  const enqueued = await tx(() => {
    writes.withEnqueue?.();
    return options.outbox.enqueue(rows);
  });
  const toSend = enqueued.flatMap((row, i) => (row.sent ? [] : [{ id: row.id, chunk: chunks[i], first: i === 0 }]));
  if (toSend.length === 0 && writes.onSettled) await tx(writes.onSettled);
  for (const [n, { id, chunk, first }] of toSend.entries()) {
    if (!chunk) continue;
    const last = n === toSend.length - 1;
    await sendRow(options, adapter, target, { id, text: chunk.text, formatted: chunk.formatted, first }, result, {
      tx,
      ...(last && writes.onSettled ? { onSettled: writes.onSettled } : {}),
    });
  }
  return result;
}

async function sendRow(
  options: DeliveryOptions,
  adapter: PlatformAdapter,
  target: DeliveryTarget,
  row: { id: number; text: string; formatted: boolean; first: boolean },
  result: DeliveryResult,
  commit: { tx: <T>(fn: () => T) => Promise<T>; onSettled?: () => void } = { tx: async (fn) => fn() },
): Promise<void> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  let outcome: SendResult | null = null;
  for (let attempt = 1; attempt <= SEND_MAX_ATTEMPTS; attempt++) {
    outcome = await adapter.send({
      chatId: target.chatId,
      text: row.text,
      formatted: row.formatted,
      ...(target.threadId ? { threadId: target.threadId } : {}),
      ...(row.first && target.replyToMessageId ? { replyToMessageId: target.replyToMessageId } : {}),
    });
    if (outcome.ok || outcome.error !== 'rate_limited') break;
    options.outbox.recordAttempt(row.id, outcome.message);
    await sleep(Math.min(outcome.retryAfterMs ?? 1000, RETRY_AFTER_CAP_MS));
  }
  const settle = commit.onSettled;
  if (outcome?.ok) {
    const messageId = outcome.messageIds[0] ?? null;
    if (settle)
      await commit.tx(() => {
        options.outbox.markSent(row.id, messageId);
        settle();
      });
    else options.outbox.markSent(row.id, messageId);
    result.sent++;
  } else {
    const message = outcome ? `${outcome.error}: ${outcome.message}` : 'not sent';
    if (settle)
      await commit.tx(() => {
        options.outbox.markFailed(row.id, message);
        settle();
      });
    else options.outbox.markFailed(row.id, message);
    options.logger.warn({ platform: target.platform, chatId: target.chatId, error: message }, 'delivery failed');
    result.failed++;
    result.errors.push(message);
  }
}

/** Sends the outbox rows of an earlier answer that are not sent yet (crash recovery). */
export async function resendPending(
  options: DeliveryOptions,
  target: DeliveryTarget,
  rows: readonly OutboxRowLike[],
): Promise<DeliveryResult> {
  const result: DeliveryResult = { sent: 0, failed: 0, errors: [] };
  const adapter = options.adapters.get(target.platform);
  if (!adapter) return { sent: 0, failed: rows.length, errors: [`platform ${target.platform} is not connected`] };
  for (const row of [...rows].sort((a, b) => a.chunkIndex - b.chunkIndex)) {
    if (row.status === 'sent') continue;
    await sendRow(
      options,
      adapter,
      target,
      { id: row.id, text: row.text, formatted: row.formatted, first: row.chunkIndex === 0 },
      result,
    );
  }
  return result;
}
