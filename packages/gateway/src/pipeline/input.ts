/** What each stage after the accept receives: the stored message and its session key, computed once. */
import type { MessageEvent } from '@hermes/protocol';
import type { DeliveryTarget } from '../delivery/deliver.js';

export interface StageInput {
  inboxId: number;
  event: MessageEvent;
  /** the session key, computed once at accept (sessionKeyFor) and carried through every stage */
  sessionKey: string;
  /** when the message was accepted (or resumed after a restart), on the metrics clock */
  acceptedAt: number;
}

/** A lane's job: a stage input and the text the turn answers (a /queue or /steer argument, or steering). */
export interface LaneJob extends StageInput {
  text: string;
  /** inbox ids of further messages joined into this job (a split paste, pipeline/batch.ts): settled with it */
  joined?: number[];
}

/** Where an answer to `event` goes: its chat (thread), replying to it in groups, under its inbox row. */
export function replyTarget(event: MessageEvent, inboxId?: number): DeliveryTarget {
  return {
    platform: event.platform,
    chatId: event.source.chatId,
    ...(event.source.threadId ? { threadId: event.source.threadId } : {}),
    ...(event.source.chatType !== 'dm'
      ? { replyToMessageId: event.messageId.split(':').pop() ?? event.messageId }
      : {}),
    ...(inboxId !== undefined ? { inboxId } : {}),
  };
}
