/**
 * The events of one webhook POST, in order: each message normalized, its files downloaded, then
 * handed to the sink (whose inbox drops a `wamid` it has seen: a redelivered webhook is processed
 * once); a button press handed to the gateway once per `wamid`; statuses logged (a failed one with
 * Meta's error), never turned into messages. Rejects when the sink fails, so the POST is answered
 * 500 and Meta delivers it again.
 */
import type { AttachmentFetcher } from '@hermes/plugin-sdk';
import type { InboundSink, Logger } from '@hermes/protocol';
import { handlePress } from './approvals.js';
import { normalizeMessage, type PendingMedia } from './normalize.js';
import type { WaStatus, WebhookContents } from './payload.js';
import type { Sender } from './send-message.js';

/** A bounded set of recent keys (presses already handled, ...): the oldest is forgotten first. */
export function recentKeys(max: number): { seen(key: string): boolean } {
  const keys = new Set<string>();
  return {
    seen(key) {
      if (keys.has(key)) return true;
      keys.add(key);
      if (keys.size > max) keys.delete(keys.values().next().value as string);
      return false;
    },
  };
}

export interface DeliveryDeps {
  sink: InboundSink;
  logger: Logger;
  attachments: AttachmentFetcher<PendingMedia>;
  sender: Sender;
  now: () => number;
  /** presses already handed over (a redelivered press is not answered twice) */
  presses: { seen(key: string): boolean };
  /** remembers the newest message of each chat (the typing indicator marks it read) */
  onMessage: (chatId: string, messageId: string) => void;
}

function logStatus(status: WaStatus, logger: Logger): void {
  const fields = { messageId: status.id, status: status.status };
  if (status.status === 'failed') {
    const why = status.errors.join('; ') || 'no reason given';
    logger.warn({ ...fields, error: why }, `whatsapp: a sent message failed: ${why}`);
  } else logger.debug(fields, `whatsapp: message ${status.status}`);
}

/** Hands the POST's events over; resolves once every message is accepted. */
export async function deliverContents(
  contents: WebhookContents,
  deps: DeliveryDeps,
  signal: AbortSignal,
): Promise<void> {
  for (const status of contents.statuses) logStatus(status, deps.logger);
  for (const { message, contactName } of contents.messages) {
    const inbound = normalizeMessage(message, contactName, deps.now());
    if (inbound.kind === 'skip') {
      deps.logger.info({ messageId: message.id, type: message.type }, `whatsapp: message skipped: ${inbound.reason}`);
      continue;
    }
    if (inbound.kind === 'press') {
      if (!deps.presses.seen(inbound.messageId)) await handlePress(inbound, deps);
      continue;
    }
    const { event, files } = inbound;
    const downloaded = await deps.attachments.fetchAll(
      files,
      signal,
      (file) => ({ messageId: event.messageId, mediaId: file.mediaId }),
      event.source.userId, // a stranger's files are not stored
    );
    if (!downloaded) throw new Error(`whatsapp: stopped before message ${event.messageId} was delivered`);
    await deps.sink.accept(event);
    deps.onMessage(event.source.chatId, event.messageId);
  }
}
