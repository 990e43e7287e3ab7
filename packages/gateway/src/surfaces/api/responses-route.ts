/**
 * `POST /v1/responses`, the Responses API, streaming and not. A response is stored (unless
 * `store: false`): its id maps to a Hermes session in state.db, and `previous_response_id` goes on
 * with that session's transcript as it was when that response was answered (a fork, into a new
 * session, when later turns already followed it or one is running in it). The request is a turn
 * job of surface `responses` through the gateway's stages (`Gateway.submitTurn`): the dispatch hook
 * (a skip is a 403), commands (their answer is the response), a run slot, events and metrics; the
 * conversation is its sink's own (`SinkConversation`), opened once the job has its run slot.
 */
import { randomUUID } from 'node:crypto';
import type { ServedTurn } from '@hermes/agent';
import { API_IDENTITY, type ChatMessage, planFor, SESSION_KEYS } from '@hermes/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DISPATCH_REFUSAL, limitedAnswer, STOPPING, sendApiError } from '../../http/api-error.js';
import { startEventStream } from '../../http/event-stream.js';
import { awaitedSink } from '../../intake/direct-intake.js';
import type { DirectOutcome, SinkConversation } from '../../pipeline/input.js';
import { failureCode } from '../../turn/failure-reply.js';
import type { ApiPipeline, ApiPlatformDeps } from './api-platform.js';
import { type ResponsesTurnInput, responsesTurnInput } from './responses-input.js';
import { type ResponseMeta, responseEvents, responseObject } from './responses-shape.js';
import { bodySchema, foreignResponsesItem, responsesBodySchema } from './schemas.js';

interface ResponsesBody {
  input: unknown;
  instructions?: unknown;
  previous_response_id?: unknown;
  store?: unknown;
  stream?: unknown;
  temperature?: unknown;
  top_p?: unknown;
  max_output_tokens?: unknown;
  metadata?: unknown;
}

type Previous = { sessionId: string; messageCount: number } | null;

const numberOrNull = (value: unknown) => (typeof value === 'number' ? value : null);

/**
 * The conversation a response's turn runs in. `busy`: sessions with a response turn running (a
 * second turn chained onto the same response meanwhile forks, so the two never interleave in one
 * transcript); a stored conversation's session is added to it in the same step as the check.
 */
function conversation(
  deps: ApiPlatformDeps,
  id: string,
  previous: Previous,
  input: ResponsesTurnInput,
  stored: boolean,
  busy: Set<string>,
): SinkConversation {
  const key = SESSION_KEYS.apiResponse(id);
  const fresh = () => deps.sessions.create({ key, platform: 'api', model: deps.model, userKey: API_IDENTITY });
  const opened = (sessionId: string, earlier: readonly ChatMessage[], isNew: boolean) => {
    if (stored) busy.add(sessionId);
    return { sessionId, sessionKey: key, isNew, history: [...earlier, ...input.history] };
  };
  return {
    async open() {
      const all = previous ? await deps.transcripts.list(previous.sessionId) : [];
      const earlier = previous ? all.slice(0, previous.messageCount) : [];
      if (!stored) return opened(SESSION_KEYS.apiStateless(randomUUID()), earlier, false);
      // checked and taken with no await in between
      if (previous && all.length === previous.messageCount && !busy.has(previous.sessionId))
        return opened(previous.sessionId, earlier, false);
      // a new conversation; or later turns already followed that response (or one is running): a fork there
      const session = await fresh();
      if (previous) await deps.transcripts.append(session.id, earlier);
      return opened(session.id, earlier, true);
    },
    async keep(sessionId: string, result: ServedTurn) {
      if (!stored) return;
      const count = await deps.transcripts.append(sessionId, [...input.history, ...result.messages]);
      if (result.status === 'completed') await deps.responses?.record(id, sessionId, count);
    },
    close: (sessionId: string) => busy.delete(sessionId),
  };
}

/** Registers `POST /v1/responses` (`bodyLimit`: the chat completions endpoint's); its requests go through `pipeline`. */
export function registerResponsesRoute(
  app: FastifyInstance,
  deps: ApiPlatformDeps,
  bodyLimit: number,
  pipeline: ApiPipeline,
): void {
  const options = { bodyLimit, config: { guard: 'api' }, ...bodySchema(responsesBodySchema, foreignResponsesItem) };
  const busy = new Set<string>();
  app.post('/v1/responses', options, async (request: FastifyRequest, reply: FastifyReply) => {
    const body = request.body as ResponsesBody;
    const input = responsesTurnInput(body.input, body.instructions);
    if ('problem' in input) {
      return sendApiError(reply, 400, input.problem, 'invalid_request_error', 'invalid_request', input.param);
    }
    const previousId = typeof body.previous_response_id === 'string' ? body.previous_response_id : null;
    const previous = previousId === null ? null : ((await deps.responses?.get(previousId)) ?? undefined);
    if (previous === undefined) {
      return sendApiError(
        reply,
        400,
        `Previous response with id '${previousId}' not found (it was not stored, or retention deleted its session)`,
        'invalid_request_error',
        'previous_response_not_found',
        'previous_response_id',
      );
    }
    const id = `resp_${randomUUID().replace(/-/g, '')}`;
    const stored = body.store !== false && deps.responses !== undefined;
    const meta: ResponseMeta = {
      id,
      itemId: `msg_${randomUUID().replace(/-/g, '')}`,
      createdAt: Math.floor(Date.now() / 1000),
      model: deps.model,
      instructions: input.instructions,
      previousResponseId: previousId,
      store: stored,
      temperature: numberOrNull(body.temperature),
      topP: numberOrNull(body.top_p),
      maxOutputTokens: numberOrNull(body.max_output_tokens),
      metadata: (body.metadata ?? {}) as Record<string, unknown>,
    };
    const controller = new AbortController();
    // the client went away before the answer was written: stop the turn
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) controller.abort();
    });
    const redact = deps.redact ?? ((text: string) => text);
    const events = body.stream === true ? responseEvents(meta, (chunk) => reply.raw.write(chunk), redact) : null;
    const { sink, outcome } = awaitedSink(events ? 'sse' : 'http', {
      signal: controller.signal,
      conversation: conversation(deps, id, previous, input, stored, busy),
      ...(events
        ? {
            onDelta: (text: string) => events.delta(text),
            onAdmitted: () => {
              startEventStream(reply);
              events.start();
            },
          }
        : {}),
    });
    pipeline.submitTurn({
      surface: 'responses',
      who: { platform: 'api', userId: 'api', chatId: id },
      sessionKey: SESSION_KEYS.apiResponse(id),
      input: { text: input.userMessage, instructions: input.instructions },
      sink,
      plan: planFor('responses'),
    });
    return answer(deps, reply, meta, events, await outcome);
  });
}

/** Answers a response's outcome: JSON, or the end of its stream. */
function answer(
  deps: ApiPlatformDeps,
  reply: FastifyReply,
  meta: ResponseMeta,
  events: ReturnType<typeof responseEvents> | null,
  outcome: DirectOutcome,
): FastifyReply {
  const fail = (status: number, code: string, message: string, type: 'server_error' | 'invalid_request_error') => {
    if (!events) return sendApiError(reply, status, message, type, code);
    events.failed(code, message, null);
    reply.raw.end();
    return reply;
  };
  // refused before the stream began: a JSON error either way
  if (outcome.kind === 'skipped')
    return sendApiError(reply, 403, DISPATCH_REFUSAL, 'invalid_request_error', 'refused_by_hook');
  if (outcome.kind === 'unavailable') {
    if (!reply.raw.headersSent) return sendApiError(reply, 503, STOPPING, 'server_error', 'unavailable');
    return fail(503, 'unavailable', STOPPING, 'server_error');
  }
  if (outcome.kind === 'limited') {
    if (!reply.raw.headersSent) return limitedAnswer(reply, outcome);
    return fail(429, 'rate_limit_exceeded', outcome.text, 'invalid_request_error');
  }
  if (outcome.kind === 'error') {
    // a storage failure (SQLITE_FULL included): thrown to the error handler unless streaming
    if (!events) throw outcome.error;
    deps.logger.error({ error: String(outcome.error) }, 'api: the response could not be answered');
    return fail(500, 'server_error', 'the answer could not be made (see the gateway log)', 'server_error');
  }
  const text = outcome.kind === 'command' ? (deps.redact ?? ((t: string) => t))(outcome.text) : (outcome.text ?? '');
  const usage = outcome.kind === 'ran' ? outcome.result.usage : null;
  if (outcome.kind === 'ran' && outcome.storeError !== null) {
    if (!events) throw outcome.storeError;
    deps.logger.error({ error: String(outcome.storeError) }, 'api: the response could not be stored');
    events.failed('storage_error', 'the answer could not be stored (see the gateway log)', usage);
    reply.raw.end();
    return reply;
  }
  if (outcome.kind === 'ran' && outcome.failure !== null) {
    const code = failureCode(outcome.result.error, outcome.result.status);
    if (!events) return sendApiError(reply, 502, outcome.failure, 'server_error', code);
    events.failed(code, outcome.failure, usage);
    reply.raw.end();
    return reply;
  }
  if (!events) return reply.send(responseObject(meta, 'completed', text, usage));
  if (outcome.kind === 'command') events.delta(outcome.text);
  events.completed(text, usage);
  reply.raw.end();
  return reply;
}
