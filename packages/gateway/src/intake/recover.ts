/**
 * Crash recovery at start: each accepted-but-unfinished inbox row is resent (its answer was already
 * written), processed again, or, cut off too many starts in a row, answered with an apology.
 */
import { type GroupSessions, type Logger, type MessageEvent, sessionKeyFor } from '@hermes/protocol';
import type { CommitWork, UnitOfWork } from '@hermes/store';
import type { DeliveryOptions, WrittenRow } from '../delivery/deliver.js';
import { deliverStreamed, resendAnswer } from '../delivery/deliver-streamed.js';
import type { StreamIds } from '../delivery/stream-ids.js';
import { replyTarget } from '../pipeline/input.js';
import { settleInbox } from '../pipeline/outcome.js';

/** a message whose turn was cut off this many starts in a row is answered with an apology instead */
export const MAX_RESUME_ATTEMPTS = 3;

export interface PendingRow {
  id: number;
  platform: string;
  payload: unknown;
  attempts: number;
  /** the key computed when the message was accepted (null on rows stored before the inbox kept it) */
  sessionKey: string | null;
}

export interface RecoverPorts {
  logger: Logger;
  markFailed(inboxId: number): Promise<unknown>;
  markProcessing(inboxId: number): Promise<unknown>;
  written(inboxId: number): Promise<WrittenRow[]>;
  track(work: Promise<void>): void;
  tellInterrupted(inboxId: number, event: MessageEvent): Promise<void>;
  resend(inboxId: number, event: MessageEvent, rows: readonly WrittenRow[]): Promise<void>;
  /** runs the turn again under the session key stored at accept */
  process(inboxId: number, event: MessageEvent, sessionKey: string | null): Promise<void>;
}

export async function recoverUnfinished(ports: RecoverPorts, unfinished: readonly PendingRow[]): Promise<void> {
  for (const row of unfinished) {
    const event = row.payload as MessageEvent;
    if (typeof event !== 'object' || event === null || typeof event.text !== 'string' || !event.source) {
      await ports.markFailed(row.id);
      continue;
    }
    const written = await ports.written(row.id);
    if (row.attempts >= MAX_RESUME_ATTEMPTS && written.length === 0) {
      // resumed and cut off this many times already (it may be what crashes the gateway): give up, say so
      ports.logger.warn({ inboxId: row.id, platform: row.platform }, 'giving up on a message resumed too often');
      ports.track(ports.tellInterrupted(row.id, event));
      continue;
    }
    ports.logger.info({ inboxId: row.id, platform: row.platform }, 'resuming an accepted message');
    await ports.markProcessing(row.id); // counts the attempt
    // the answer was already written: send what is not sent yet, never run the turn again
    if (written.length > 0) ports.track(ports.resend(row.id, event, written));
    else ports.track(ports.process(row.id, event, row.sessionKey));
  }
}

/** The apology for a message given up on after restarts. */
export function interruptedApology(event: MessageEvent): string {
  const quoted = event.text.length > 60 ? `${event.text.slice(0, 60)}…` : event.text;
  return `Sorry, your message "${quoted}" was interrupted by a restart and could not be answered. Please send it again.`;
}

/**
 * Answers a message given up on with the apology. A streamed answer the user already saw (part of)
 * is edited into the apology, so the chat ends with one message for it, not an answer and an apology.
 */
export async function apologise(
  options: DeliveryOptions,
  ids: StreamIds,
  event: MessageEvent,
  inboxId: number,
  settle: UnitOfWork,
): Promise<void> {
  const streamed = await ids.read(event.platform, inboxId);
  const forget = streamed.length > 0 ? [ids.clear(event.platform, inboxId)] : [];
  // the ids are forgotten with the inbox row's mark: a crash before it edits the same messages again
  await deliverStreamed(options, replyTarget(event, inboxId), interruptedApology(event), streamed, {
    onSettled: [...settle, ...forget],
  });
}

/** What the gateway gives recovery: its store, its delivery of answers, and its pipeline after the accept. */
export interface RecoverySources {
  logger: Logger;
  store: { commit: CommitWork; outbox: { forInbox(inboxId: number): Promise<WrittenRow[]> } };
  /** how chat session keys are made, for rows an older version stored without their key */
  groupSessions: GroupSessions;
  /** the delivery options of an answer */
  delivery(): DeliveryOptions;
  streamIds: StreamIds;
  track(work: Promise<void>): void;
  process(input: { inboxId: number; event: MessageEvent; sessionKey: string }): Promise<unknown>;
}

/** The recovery ports over the gateway's parts: marks, resends and apologies through its delivery. */
export function recoveryPorts(src: RecoverySources): RecoverPorts {
  const { streamIds } = src;
  const { commit } = src.store;
  return {
    logger: src.logger,
    markFailed: (id) => commit([{ kind: 'inbox.mark', id, status: 'failed' }]),
    markProcessing: (id) => commit([{ kind: 'inbox.mark', id, status: 'processing' }]),
    written: (id) => src.store.outbox.forInbox(id),
    track: (work) => src.track(work),
    tellInterrupted: (inboxId, event) =>
      apologise(src.delivery(), streamIds, event, inboxId, settleInbox(inboxId, { kind: 'interrupted' })),
    resend: async (inboxId, event, rows) => {
      await resendAnswer(src.delivery(), { ...replyTarget(event), inboxId }, rows, streamIds);
      await commit(settleInbox(inboxId, { kind: 'answered' }));
    },
    // under the key stored at accept (computed only for rows an older version stored without it)
    process: async (inboxId, event, stored) => {
      await src.process({ inboxId, event, sessionKey: stored ?? sessionKeyFor(event.source, src.groupSessions) });
    },
  };
}
