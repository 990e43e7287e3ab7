/**
 * What the stages receive. A chat message after the accept: the stored message and its session key,
 * computed once (`StageInput`, `LaneJob`). Every turn, from any surface: one `GatewayTurnJob` (the
 * protocol's `TurnJob` with the gateway's sinks), the only thing the lanes and the turn stage see.
 */
import type { ServedTurn, TurnApproval } from '@hermes/agent';
import type { ChatMessage, Logger, MessageEvent, ToolDefinition, TurnJob } from '@hermes/protocol';
import type { DeliveryTarget } from '../delivery/deliver.js';

export interface StageInput {
  inboxId: number;
  event: MessageEvent;
  /** the session key, computed once at accept (sessionKeyFor) and carried through every stage */
  sessionKey: string;
  /** when the message was accepted (or resumed after a restart), on the metrics clock */
  acceptedAt: number;
}

/** A chat message on its way to a lane: a stage input and the text the turn answers (a /queue or /steer argument). */
export interface LaneJob extends StageInput {
  text: string;
  /** the channel's own instructions (gateway.channel_prompts), after the system prompt */
  instructions?: string;
  /** the channel's toolsets (gateway.channel_toolsets) */
  toolsets?: readonly string[];
  /** inbox ids of further messages joined into this job (a split paste, pipeline/batch.ts): settled with it */
  joined?: number[];
}

/** A chat's answer: delivered through the outbox under the message's inbox row (and the rows joined into it). */
export interface OutboxSink {
  kind: 'outbox';
  inboxId: number;
  event: MessageEvent;
  joined?: number[];
}

/** What became of a job whose answer is awaited (an HTTP request, a cron fire, a hook's `runAgent`). */
export type DirectOutcome =
  /** `pre_gateway_dispatch` skipped it: no model call */
  | { kind: 'skipped' }
  /** the gateway is stopping, or `/stop`, `/new` dropped it before it ran */
  | { kind: 'unavailable' }
  /** a command answered it */
  | { kind: 'command'; text: string }
  /** the user is over a limit (access.*.limits): no model request was made; `text` says when it resets */
  | { kind: 'limited'; text: string; retryAfterS: number }
  /**
   * the turn ran: `text`, its answer redacted; `failure`, the user-facing text of a turn that did not
   * complete; `storeError`, why its transcript was not stored
   */
  | { kind: 'ran'; result: ServedTurn; text: string | null; failure: string | null; storeError: unknown }
  /** the turn could not run (its session could not be opened) */
  | { kind: 'error'; error: unknown };

/** A conversation the sink keeps itself (the Responses API's `previous_response_id` chain). */
export interface SinkConversation {
  /** picks (or forks) the session the turn runs in, and its history */
  open(): Promise<{ sessionId: string; sessionKey: string; isNew: boolean; history: readonly ChatMessage[] }>;
  /** stores what the turn added */
  keep(sessionId: string, result: ServedTurn): Promise<void>;
  /** the turn is over (kept or not) */
  close(sessionId: string): void;
}

/** Where an awaited answer goes: the caller gets the outcome and writes it (HTTP JSON, SSE, a cron target, a return value). */
export interface DirectSink {
  kind: 'http' | 'sse' | 'cron' | 'return';
  /** called once, with what became of the job */
  settle(outcome: DirectOutcome): void;
  /** the caller gave up (the client went away, the scheduler or the gateway stops) */
  signal?: AbortSignal;
  /** streamed answer text (SSE) */
  onDelta?(text: string): void;
  /** the job passed the dispatch hook (an SSE answer writes its headers now) */
  onAdmitted?(): void;
  /** who answers a dangerous command (absent: the approval hooks, keyed by the session) */
  approval?: TurnApproval;
  /** the turn's tools (a cron job's toolsets) */
  tools?: readonly ToolDefinition[];
  /** false: no memory block, prefetch or sync */
  memory?: false;
  maxIterations?: number;
  logger?: Logger;
  conversation?: SinkConversation;
}

export type TurnSink = OutboxSink | DirectSink;

/** The one job every surface submits to the lanes and the turn stage. */
export interface GatewayTurnJob<S extends TurnSink = TurnSink> extends TurnJob<S> {
  /** when the job was accepted, on the metrics clock */
  acceptedAt: number;
}

export type DirectTurnJob = GatewayTurnJob<DirectSink>;
export type ChatTurnJob = GatewayTurnJob<OutboxSink>;

/** Where an answer to `event` goes: its chat (thread), replying to it in groups, under its inbox row. */
export function replyTarget(event: MessageEvent, inboxId?: number): DeliveryTarget {
  return {
    platform: event.platform,
    chatId: event.source.chatId,
    ...(event.source.threadId ? { threadId: event.source.threadId } : {}),
    ...(event.source.chatType !== 'dm' ? { replyToMessageId: event.messageId } : {}),
    ...(inboxId !== undefined ? { inboxId } : {}),
  };
}
