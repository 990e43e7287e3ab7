/**
 * The one delivery path: format for the platform, split at its limit, persist the chunks in the
 * outbox, send each, and mark it sent. Only refusals the platform answered are retried: a 429
 * (after its retry-after) and a 500/502/503 (after a backoff); a send that got no answer (timeout,
 * reset connection) may have gone through and is recorded as failed, never blindly repeated.
 */
import type { Logger, OutboundMessage, PlatformAdapter, SendErrorKind, SendResult } from '@hermes/protocol';
import { type CommitWork, commitFor, type OutboxRow, type UnitOfWork } from '@hermes/store';
import { answerParts, outboundMedia, uploadFallbackText } from './media/media-rows.js';
import type { MediaSourceOptions } from './media/media-source.js';
import type { SendRateLimiter } from './send-rate-limiter.js';
import { splitMessage } from './split-message.js';

export const SEND_MAX_ATTEMPTS = 5;
export const RETRY_AFTER_CAP_MS = 60_000;
/** the platform's own error answers: it did not take the message (a 504, a gateway timeout, may have) */
export const RETRIED_SERVER_STATUSES: ReadonlySet<number> = new Set([500, 502, 503]);
/** the first wait after a server error; doubled per attempt */
export const SERVER_ERROR_BACKOFF_MS = 1_000;

/** How long to wait before sending a refused message again; null when it must not be repeated. */
export function resendDelayMs(outcome: Extract<SendResult, { ok: false }>, attempt: number): number | null {
  if (outcome.error === 'rate_limited') return Math.min(outcome.retryAfterMs ?? 1000, RETRY_AFTER_CAP_MS);
  if (outcome.error !== 'transient' || outcome.status === undefined || !RETRIED_SERVER_STATUSES.has(outcome.status)) {
    return null;
  }
  return Math.min(outcome.retryAfterMs ?? SERVER_ERROR_BACKOFF_MS * 2 ** (attempt - 1), RETRY_AFTER_CAP_MS);
}

/** A row of an answer written before (crash recovery resends it), as delivery reads it. */
export type WrittenRow = Pick<OutboxRow, 'id' | 'status' | 'text' | 'formatted' | 'chunkIndex' | 'createdAt' | 'kind'>;

export interface DeliveryTarget {
  platform: string;
  chatId: string;
  threadId?: string;
  replyToMessageId?: string;
  /** the inbox row this answers, so a redone reply never duplicates chunks */
  inboxId?: number;
  /** an answer's: the owner identity it is for (its MEDIA files may come from that user's cache folder only) */
  mediaOwner?: string;
}

export interface DeliveryResult {
  sent: number;
  failed: number;
  errors: string[];
}

/** Why a message was given up: the adapter's error kind, or no adapter for the platform. */
export type SendFailure = SendErrorKind | 'not_connected';

/** Told about each send's result (metrics); called synchronously, must not throw. */
export interface DeliveryObserver {
  /** the platform accepted one message (chunk) */
  messageSent(platform: string): void;
  /** one message given up */
  messageFailed(platform: string, error: SendFailure): void;
  /** a 429: waited out and retried (or given up at the last attempt) */
  rateLimited(platform: string): void;
}

export interface DeliveryOptions {
  adapters: ReadonlyMap<string, PlatformAdapter>;
  logger: Logger;
  observer?: DeliveryObserver;
  /** commits a unit of work (the outbox rows and their marks, with the writes that belong to them) */
  commit: CommitWork;
  sleep?: (ms: number) => Promise<void>;
  /** the process's secret redactor, applied to the whole text before it is chunked, stored and sent */
  redact?: (text: string) => string;
  /** keeps each platform's `capabilities.sendRate` (waits before a send, never drops); absent: no limit */
  rateLimiter?: SendRateLimiter;
  /** `MEDIA:` lines become attachments checked with these options; absent: the lines stay text */
  media?: MediaSourceOptions;
}

/**
 * State writes that belong with the delivery, so they commit in the same unit of work as it:
 * `withEnqueue` with the outbox rows (e.g. the transcript), `onSettled` with the last row's
 * sent/failed mark (e.g. the inbox row's done mark).
 */
export interface DeliveryWrites {
  withEnqueue?: UnitOfWork;
  onSettled?: UnitOfWork;
  /** files to attach besides the answer's MEDIA lines (send_message's `media`), checked the same way */
  media?: readonly string[];
}

/** One piece of an answer: a formatted or plain text chunk, or a file (`text` its path). */
export interface Piece {
  text: string;
  formatted: boolean;
  media?: true;
}

/** Delivers Markdown text to a target through its platform's adapter. */
export async function deliver(
  options: DeliveryOptions,
  target: DeliveryTarget,
  markdown: string,
  writes: DeliveryWrites = {},
): Promise<DeliveryResult> {
  const adapter = options.adapters.get(target.platform);
  const result: DeliveryResult = { sent: 0, failed: 0, errors: [] };
  if (!adapter) {
    if (writes.withEnqueue || writes.onSettled)
      await options.commit([...(writes.withEnqueue ?? []), ...(writes.onSettled ?? [])]);
    result.failed = 1;
    result.errors.push(`platform ${target.platform} is not connected`);
    options.observer?.messageFailed(target.platform, 'not_connected');
    return result;
  }
  const chunks = await answerPieces(options, adapter, markdown, writes.media, target.mediaOwner);
  // with an inbox id, rows written before a restart are reused and the ones already sent skipped
  const enqueued = await commitFor(options.commit, writes.withEnqueue ?? [], {
    kind: 'outbox.enqueue',
    rows: outboxRows(target, chunks),
  });
  const toSend = enqueued.flatMap((row, i) =>
    row.sent
      ? []
      : [{ id: row.id, createdAt: row.createdAt, existed: row.existed === true, chunk: chunks[i], first: i === 0 }],
  );
  if (toSend.length === 0 && writes.onSettled) await options.commit(writes.onSettled);
  for (const [n, { id, createdAt, existed, chunk, first }] of toSend.entries()) {
    if (!chunk) continue;
    const last = n === toSend.length - 1;
    // a row written by an earlier try at this answer may have been posted by it
    const row = {
      id,
      createdAt,
      text: chunk.text,
      formatted: chunk.formatted,
      first,
      mayRepeat: existed,
      ...(chunk.media ? { media: true } : {}),
    };
    await sendRow(options, adapter, target, row, result, last ? writes.onSettled : undefined);
  }
  return result;
}

/**
 * An answer as outbox pieces: redacted (before chunking: a secret cut in two by a chunk boundary
 * would escape a per-chunk pass), its MEDIA lines taken out and each file checked (a plain answer
 * costs one substring search), split and formatted, then one piece per file, sent once like a chunk.
 */
export async function answerPieces(
  options: DeliveryOptions,
  adapter: PlatformAdapter,
  markdown: string,
  media?: readonly string[],
  owner?: string,
): Promise<Piece[]> {
  const redacted = options.redact ? options.redact(markdown) : markdown;
  const parts =
    options.media && (media?.length || redacted.includes('MEDIA:'))
      ? await answerParts(redacted, options.media, media, { owner })
      : { text: redacted, files: [] as string[] };
  const files = parts.files.map((file): Piece => ({ text: file, formatted: false, media: true }));
  return [...formatChunks(adapter, parts.text), ...files];
}

/** The outbox rows of an answer's pieces, in order (a file's row is of kind media). */
export function outboxRows(target: DeliveryTarget, pieces: readonly Piece[]) {
  return pieces.map((piece, i) => ({
    inboxId: target.inboxId ?? null,
    platform: target.platform,
    chatId: target.chatId,
    threadId: target.threadId ?? null,
    chunkIndex: i,
    text: piece.text,
    formatted: piece.formatted,
    ...(piece.media ? { kind: 'media' as const } : {}),
  }));
}

/** The split limit for Markdown: formatting may lengthen a chunk, so a tenth of the limit is kept free. */
export function splitLimit(adapter: PlatformAdapter): number {
  return Math.max(100, Math.floor(adapter.capabilities.maxMessageLength * 0.9));
}

/** Markdown split at the platform's limit, then each chunk formatted (or kept plain when formatting fails it). */
export function formatChunks(adapter: PlatformAdapter, markdown: string): { text: string; formatted: boolean }[] {
  const limit = adapter.capabilities.maxMessageLength;
  // split the Markdown first so formatting never cuts an entity in half, then format each chunk
  return splitMessage(markdown, splitLimit(adapter)).flatMap((chunk) => {
    // a blank piece has nothing to show (platforms refuse empty messages)
    if (chunk.trim() === '') return [];
    const formatted = adapter.format(chunk);
    // markup that formats to nothing (an empty code fence, bare heading marks) is sent as written
    if (formatted.trim() === '') return [{ text: chunk, formatted: false }];
    return formatted.length <= limit ? { text: formatted, formatted: true } : { text: chunk, formatted: false };
  });
}

/**
 * The same for every try of an outbox row, before and after a restart, and different for a row of
 * another database that happens to have the same id (its creation time differs): at most 17 characters.
 */
export function idempotencyKey(row: { id: number; createdAt: number }): string {
  return `${row.id.toString(36)}.${row.createdAt.toString(36)}`;
}

/** An outbox row as `sendRow` sends it. */
export interface OutgoingRow {
  id: number;
  createdAt: number;
  text: string;
  formatted: boolean;
  /** the answer's first message (replies to the user's message) */
  first: boolean;
  /** the platform may already have it (a resend after a crash): looked up or sent with its idempotency key */
  mayRepeat: boolean;
  /** a file to upload, `text` its path */
  media?: boolean;
}

/** A stored row with how it is sent: first of the answer, perhaps a repeat, a file. */
export function outgoingRow(
  row: Pick<OutgoingRow, 'id' | 'createdAt' | 'text' | 'formatted'>,
  how: { first: boolean; mayRepeat: boolean; media: boolean },
): OutgoingRow {
  const { id, createdAt, text, formatted } = row;
  return {
    id,
    createdAt,
    text,
    formatted,
    first: how.first,
    mayRepeat: how.mayRepeat,
    ...(how.media ? { media: true } : {}),
  };
}

const sleepMs = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** What every send of a row carries (a file's upload too). */
function sendCommon(target: DeliveryTarget, row: OutgoingRow, mayRepeat: boolean) {
  return {
    chatId: target.chatId,
    idempotencyKey: idempotencyKey(row),
    ...(mayRepeat ? { mayRepeat: true } : {}),
    ...(target.threadId ? { threadId: target.threadId } : {}),
    ...(row.first && target.replyToMessageId ? { replyToMessageId: target.replyToMessageId } : {}),
  };
}

/** A text row's message: the same fields as `sendCommon`'s then text and formatted, built as one object. */
function sendMessage(target: DeliveryTarget, row: OutgoingRow, mayRepeat: boolean): OutboundMessage {
  // the fields in sendCommon's order, text and formatted last (set below)
  const message = { chatId: target.chatId, idempotencyKey: idempotencyKey(row) } as OutboundMessage;
  if (mayRepeat) message.mayRepeat = true;
  if (target.threadId) message.threadId = target.threadId;
  if (row.first && target.replyToMessageId) message.replyToMessageId = target.replyToMessageId;
  message.text = row.text;
  message.formatted = row.formatted;
  return message;
}

export async function sendRow(
  options: DeliveryOptions,
  adapter: PlatformAdapter,
  target: DeliveryTarget,
  row: OutgoingRow,
  result: DeliveryResult,
  /** writes committed with the row's sent/failed mark (the last row of an answer: the inbox row's mark) */
  onSettled: UnitOfWork = [],
): Promise<void> {
  const sleep = options.sleep ?? sleepMs;
  let outcome: SendResult | null = null;
  let mayRepeat = row.mayRepeat;
  for (let attempt = 1; attempt <= SEND_MAX_ATTEMPTS; attempt++) {
    // below the platform's limits (or without any) nothing is awaited
    const paced = options.rateLimiter?.wait(target.platform, target.chatId, adapter.capabilities.sendRate, sleep);
    if (paced) await paced;
    outcome = row.media
      ? await sendMedia(adapter, row.text, sendCommon(target, row, mayRepeat))
      : await adapter.send(sendMessage(target, row, mayRepeat));
    if (outcome.ok) break;
    const delayMs = resendDelayMs(outcome, attempt);
    if (delayMs === null) break;
    if (outcome.error === 'rate_limited') options.observer?.rateLimited(target.platform);
    // a 429 was refused before posting; a 5xx may have come after the platform took the message
    else mayRepeat = true;
    if (attempt === SEND_MAX_ATTEMPTS) break; // the last try failed: give up now, not after one more wait
    await options.commit([{ kind: 'outbox.recordAttempt', id: row.id, error: outcome.message }]);
    await sleep(delayMs);
  }
  if (outcome?.ok) {
    const platformMessageId = outcome.messageIds[0] ?? null;
    await options.commit([{ kind: 'outbox.markSent', id: row.id, platformMessageId }, ...onSettled]);
    options.observer?.messageSent(target.platform);
    result.sent++;
  } else {
    const message = outcome ? `${outcome.error}: ${outcome.message}` : 'not sent';
    await options.commit([{ kind: 'outbox.markFailed', id: row.id, error: message }, ...onSettled]);
    options.logger.warn({ platform: target.platform, chatId: target.chatId, error: message }, 'delivery failed');
    options.observer?.messageFailed(target.platform, outcome?.error ?? 'transient');
    result.failed++;
    result.errors.push(message);
    // an upload that failed: a text naming the file stands in for it (one try, not recorded)
    if (row.media) {
      await options.rateLimiter?.wait(target.platform, target.chatId, adapter.capabilities.sendRate, sleep);
      const fallback = uploadFallbackText(row.text, outcome?.ok === false ? outcome.message : 'not sent');
      await adapter
        .send({
          chatId: target.chatId,
          text: fallback,
          formatted: false,
          ...(target.threadId ? { threadId: target.threadId } : {}),
        })
        .catch(() => undefined);
    }
  }
}

/** One upload through the adapter's `sendMedia`; a platform without it, or a file it cannot take, is a refusal. */
async function sendMedia(
  adapter: PlatformAdapter,
  filePath: string,
  common: { chatId: string; idempotencyKey: string; mayRepeat?: boolean; threadId?: string; replyToMessageId?: string },
): Promise<SendResult> {
  const refuse = (message: string): SendResult => ({ ok: false, error: 'forbidden', message });
  const limits = adapter.capabilities.media;
  if (!adapter.sendMedia || !limits) return refuse(`${adapter.name} cannot receive files`);
  const media = await outboundMedia(filePath, common);
  if (typeof media === 'string') return refuse(media);
  if (media.size > limits.maxUploadBytes) {
    const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
    return refuse(`${mb(media.size)} is over ${adapter.name}'s upload limit of ${mb(limits.maxUploadBytes)}`);
  }
  return adapter.sendMedia(media);
}

/** Sends the outbox rows of an earlier answer that are not sent yet (crash recovery). */
export async function resendPending(
  options: DeliveryOptions,
  target: DeliveryTarget,
  rows: readonly WrittenRow[],
): Promise<DeliveryResult> {
  const result: DeliveryResult = { sent: 0, failed: 0, errors: [] };
  const adapter = options.adapters.get(target.platform);
  if (!adapter) {
    for (const _ of rows) options.observer?.messageFailed(target.platform, 'not_connected');
    return { sent: 0, failed: rows.length, errors: [`platform ${target.platform} is not connected`] };
  }
  for (const row of [...rows].sort((a, b) => a.chunkIndex - b.chunkIndex)) {
    if (row.status === 'sent') continue;
    await sendRow(
      options,
      adapter,
      target,
      // crash recovery: the process that wrote the row may have died after the platform took it
      outgoingRow(row, { first: row.chunkIndex === 0, mayRepeat: true, media: row.kind === 'media' }),
      result,
    );
  }
  return result;
}
