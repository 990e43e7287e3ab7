/**
 * The API platform's requests through the pipeline: each becomes a `MessageEvent` (platform
 * `api`), goes through `pre_gateway_dispatch` (a skip is refused without a model call), is
 * authorized by `API_SERVER_KEY` (checked by the server's request guard before the body is read),
 * and runs in a session lane (keyed sessions: one run per session with the busy mode; stateless
 * requests: a lane of their own) under `gateway.max_concurrent_runs`, with the `session:*` and
 * `agent:*` gateway events and the platform metrics. Its delivery is the HTTP answer; keyed
 * sessions are stored, stateless ones never.
 */
import type { ServedTurn, TurnService } from '@hermes/agent';
import type { ChatMessage, MessageEvent } from '@hermes/protocol';
import type { CommitWork } from '@hermes/store';
import type { GatewayEvents } from '../gateway-events.js';
import type { GatewayMetrics } from '../metrics/gateway-metrics.js';
import type { RunControl } from '../session-lanes.js';
import type { SessionStage } from './session.js';

export interface ApiTurnRequest {
  /** the last user message's text */
  text: string;
  /** the caller's session name (`x-hermes-session` or `user`); null: a stateless request */
  key: string | null;
  /** a stateless request's earlier messages (system messages left out); ignored for keyed sessions */
  history: readonly ChatMessage[];
  /** the client went away */
  signal: AbortSignal;
  /** streamed answer text (the caller redacts it) */
  onDelta?: (text: string) => void;
  /** called once the request passed the dispatch hook, before it waits for its lane (stream headers) */
  onAdmitted?: () => void;
}

export type ApiTurnOutcome =
  /** `pre_gateway_dispatch` skipped it: no model call */
  | { kind: 'skipped' }
  /** the gateway is stopping */
  | { kind: 'unavailable' }
  /** the turn ran; `storeError` when its transcript could not be written */
  | { kind: 'ran'; result: ServedTurn; storeError: unknown };

/** A lane job of the API platform: resolved with the outcome when its turn ends. */
export interface ApiJob {
  api: true;
  event: MessageEvent;
  text: string;
  sessionKey: string | null;
  history: readonly ChatMessage[];
  signal: AbortSignal;
  onDelta?: (text: string) => void;
  acceptedAt: number;
  resolve(outcome: ApiTurnOutcome): void;
  reject(error: unknown): void;
}

/** The session key of an API session (stable across releases: `api:<name>`). */
export function apiSessionKey(key: string): string {
  return `api:${key}`;
}

/** The API request as the pipeline's `MessageEvent`. */
export function apiEvent(request: Pick<ApiTurnRequest, 'text' | 'key'>, requestId: string, now: number): MessageEvent {
  return {
    kind: 'text',
    platform: 'api',
    messageId: requestId,
    text: request.text,
    source: { platform: 'api', chatId: request.key ?? requestId, chatType: 'dm', userId: request.key ?? 'api' },
    internal: false,
    receivedAt: now,
    raw: null,
  };
}

export interface ApiTurnPorts {
  turns: TurnService;
  sessions: SessionStage;
  events: Pick<GatewayEvents, 'emit'>;
  metrics: GatewayMetrics;
  /** commits the transcript rows (a unit of work) */
  commit: CommitWork;
  now: () => number;
}

/** Runs an API job in its lane; always settles the job's promise. */
export async function runApiTurnStage(ports: ApiTurnPorts, job: ApiJob, control: RunControl): Promise<void> {
  const { event, sessionKey } = job;
  const platform = 'api';
  const userId = event.source.userId;
  let cacheUpdated = false;
  try {
    const session = sessionKey ? await ports.sessions.open(sessionKey, platform, userId) : null;
    const sessionId = session ? session.id : `api-stateless-${event.messageId}`;
    const base = { platform, user_id: userId, session_id: sessionId };
    if (session?.isNew) ports.events.emit('session:start', { ...base, session_key: sessionKey ?? '' });
    ports.events.emit('agent:start', { ...base, message: job.text });
    const history = session ? session.cached.history : job.history;
    const result = await ports.turns.run({
      sessionId,
      platform,
      userMessage: job.text,
      ...(history ? { history } : {}),
      persist: 'none', // stored below, for keyed sessions only
      stored: session !== null, // a keyed session's transcript gets these right after: context summaries apply
      approval: { surface: 'gateway', key: sessionId },
      signal: AbortSignal.any([control.signal, job.signal]),
      ...(job.onDelta ? { onDelta: job.onDelta } : {}),
      onStep: ({ iteration, toolNames }) =>
        ports.events.emit('agent:step', { ...base, iteration, tool_names: toolNames }),
    });
    const counters = ports.metrics.platform(platform);
    counters.turnEnded(result.status);
    control.settle();
    ports.events.emit('agent:end', {
      ...base,
      message: job.text,
      response: ports.turns.redact(result.finalText ?? ''),
    });
    let storeError: unknown = null;
    if (session && sessionKey) {
      try {
        await ports.commit([{ kind: 'transcripts.append', sessionId, messages: result.messages }]);
        ports.sessions.cache.appended(sessionKey, sessionId, result.history, result.messages, ports.now());
        cacheUpdated = true;
      } catch (error) {
        storeError = error;
      }
    }
    if (result.status === 'completed') counters.answered((ports.metrics.now() - job.acceptedAt) / 1000);
    job.resolve({ kind: 'ran', result, storeError });
  } catch (error) {
    job.reject(error);
  } finally {
    if (sessionKey && !cacheUpdated) ports.sessions.cache.forget(sessionKey);
  }
}
