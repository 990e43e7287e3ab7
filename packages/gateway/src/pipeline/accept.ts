/** Stage 1, accept/dedupe: the inbound event is written to the inbox (its dedupe key) before anything else. */
import type { Logger, MessageEvent } from '@hermes/protocol';
import { type AcceptResult, type CommitWork, commitFor } from '@hermes/store';

export interface AcceptPorts {
  /** commits the accept (with the platform's state) as one unit of work */
  commit: CommitWork;
  logger: Logger;
}

export type AcceptOutcome = { kind: 'accepted'; inboxId: number; event: MessageEvent } | { kind: 'duplicate' };

/** Persists the event (and the platform's state, in the same transaction) under its session key. */
export async function acceptEvent(
  ports: AcceptPorts,
  inbound: MessageEvent,
  sessionKey: string,
  state?: Record<string, string>,
): Promise<AcceptOutcome> {
  let event = inbound;
  const write = (payload: MessageEvent) =>
    commitFor(ports.commit, [], {
      kind: 'inbox.accept',
      platform: payload.platform,
      key: payload.messageId,
      payload,
      sessionKey,
      ...(state ? { state } : {}),
    });
  let accepted: AcceptResult;
  try {
    accepted = await write(event);
  } catch (err) {
    // JSON.stringify overflows the stack on a raw platform payload nested thousands of levels deep:
    // the message is kept without its raw payload rather than refused forever (a retry loop or a loss)
    if (!(err instanceof RangeError)) throw err;
    ports.logger.warn(
      { platform: event.platform, messageId: event.messageId },
      'inbound payload nested too deeply to store; accepted without its raw payload',
    );
    event = { ...event, raw: null };
    accepted = await write(event);
  }
  return accepted.accepted ? { kind: 'accepted', inboxId: accepted.id, event } : { kind: 'duplicate' };
}
