/**
 * `POST /v1/responses`, the Responses API, streaming and not. A response is stored (unless
 * `store: false`): its id maps to a Hermes session in state.db, and `previous_response_id` goes on
 * with that session's transcript as it was when that response was answered (a fork, into a new
 * session, when later turns already followed it). The turn runs like a chat completion's.
 */
import { randomUUID } from 'node:crypto';
import type { TurnService } from '@hermes/agent';
import type { ChatMessage } from '@hermes/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiPlatformDeps } from '../api-platform.js';
import { failureMessage } from '../failure-reply.js';
import { sendApiError } from '../http/api-error.js';
import { type ResponsesTurnInput, responsesTurnInput } from './responses-input.js';
import { type ResponseMeta, responseEvents, responseObject } from './responses-shape.js';
import { bodySchema, responsesBodySchema } from './schemas.js';

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

interface Conversation {
  sessionId: string;
  history: ChatMessage[];
  /** the turn is appended to the session and the response id recorded */
  stored: boolean;
}

const numberOrNull = (value: unknown) => (typeof value === 'number' ? value : null);

/**
 * Where this response's turn runs; null when `previous_response_id` names no stored response.
 * `busy`: sessions with a response turn running (a second turn chained onto the same response
 * meanwhile forks, so the two never interleave in one transcript); a stored conversation's session
 * is added to it here, in the same step as the check (the caller removes it).
 */
async function openConversation(
  deps: ApiPlatformDeps,
  previousId: string | null,
  id: string,
  store: boolean,
  busy: Set<string>,
): Promise<Conversation | null> {
  const stateless = (history: ChatMessage[]) => ({
    sessionId: `api-stateless-${randomUUID()}`,
    history,
    stored: false,
  });
  const fresh = () => deps.sessions.create({ key: `api:response:${id}`, platform: 'api', model: deps.model });
  const storedIn = (sessionId: string, history: ChatMessage[]): Conversation => {
    busy.add(sessionId);
    return { sessionId, history, stored: true };
  };
  if (previousId === null) return store && deps.responses ? storedIn((await fresh()).id, []) : stateless([]);
  const previous = await deps.responses?.get(previousId);
  if (!previous) return null;
  const all = await deps.transcripts.list(previous.sessionId);
  const history = all.slice(0, previous.messageCount);
  if (!store) return stateless(history);
  // checked and taken with no await in between
  if (all.length === previous.messageCount && !busy.has(previous.sessionId))
    return storedIn(previous.sessionId, history);
  // later turns already followed that response (or one is running): this one forks the conversation there
  const fork = await fresh();
  await deps.transcripts.append(fork.id, history);
  return storedIn(fork.id, history);
}

/** Registers the route on `app` (`bodyLimit`: the chat completions endpoint's). */
/** Registers `POST /v1/responses`; its turns run through the gateway's turn service (`turns`). */
export function registerResponsesRoute(
  app: FastifyInstance,
  deps: ApiPlatformDeps,
  bodyLimit: number,
  turns: Pick<TurnService, 'run'>,
): void {
  const options = { bodyLimit, config: { guard: 'api' }, ...bodySchema(responsesBodySchema) };
  const busy = new Set<string>();
  app.post('/v1/responses', options, async (request: FastifyRequest, reply: FastifyReply) => {
    const body = request.body as ResponsesBody;
    const input = responsesTurnInput(body.input, body.instructions);
    if ('problem' in input) {
      return sendApiError(reply, 400, input.problem, 'invalid_request_error', 'invalid_request', input.param);
    }
    const id = `resp_${randomUUID().replace(/-/g, '')}`;
    const previousId = typeof body.previous_response_id === 'string' ? body.previous_response_id : null;
    const conversation = await openConversation(deps, previousId, id, body.store !== false, busy);
    if (conversation === null) {
      return sendApiError(
        reply,
        400,
        `Previous response with id '${previousId}' not found (it was not stored, or retention deleted its session)`,
        'invalid_request_error',
        'previous_response_not_found',
        'previous_response_id',
      );
    }
    const { sessionId } = conversation;
    try {
      return await answer(deps, turns, reply, body, input, id, conversation);
    } finally {
      busy.delete(sessionId);
    }
  });
}

/** Runs the turn of a response and answers it (JSON, or the events of a stream). */
async function answer(
  deps: ApiPlatformDeps,
  turns: Pick<TurnService, 'run'>,
  reply: FastifyReply,
  body: ResponsesBody,
  input: ResponsesTurnInput,
  id: string,
  conversation: Conversation,
): Promise<FastifyReply> {
  const { sessionId, stored } = conversation;
  const previousId = typeof body.previous_response_id === 'string' ? body.previous_response_id : null;
  const redact = deps.redact ?? ((text: string) => text);
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
  const events = body.stream === true ? responseEvents(meta, (chunk) => reply.raw.write(chunk), redact) : null;
  if (events) {
    reply.hijack();
    reply.raw.writeHead(200, {
      // headers the request guard set (CORS for an allowed origin)
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    events.start();
  }
  const result = await turns.run({
    sessionId,
    platform: 'api',
    history: [...conversation.history, ...input.history],
    userMessage: input.userMessage,
    instructions: input.instructions,
    // stored below with the request's own input items (or not at all: store: false)
    persist: 'none',
    // nobody to ask over HTTP: dangerous commands are denied through the approval hooks
    approval: { surface: 'gateway', key: sessionId },
    signal: controller.signal,
    ...(events ? { onDelta: (text: string) => events.delta(text) } : {}),
  });
  const completed = result.status === 'completed';
  const text = result.finalText === null ? '' : redact(result.finalText);
  try {
    if (stored) {
      const count = await deps.transcripts.append(sessionId, [...input.history, ...result.messages]);
      if (completed) await deps.responses?.record(id, sessionId, count);
    }
  } catch (error) {
    // a storage failure (SQLITE_FULL included): thrown to the error handler unless streaming
    if (!events) throw error;
    deps.logger.error({ error: String(error), sessionId }, 'api: the response could not be stored');
    events.failed('storage_error', 'the answer could not be stored (see the gateway log)', result.usage);
    reply.raw.end();
    return reply;
  }
  if (!completed) {
    const message = failureMessage(result.error, result.status, deps.logger);
    if (!events) return sendApiError(reply, 502, message, 'server_error');
    events.failed('server_error', message, result.usage);
    reply.raw.end();
    return reply;
  }
  if (!events) return reply.send(responseObject(meta, 'completed', text, result.usage));
  events.completed(text, result.usage);
  reply.raw.end();
  return reply;
}
