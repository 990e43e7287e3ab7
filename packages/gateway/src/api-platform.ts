/**
 * The API platform, always on: `POST /v1/chat/completions`, OpenAI-compatible, streaming and not.
 * A session is keyed by the `x-hermes-session` header or the `user` field; without either the
 * request is stateless: its own messages are the history and nothing is written to state.db.
 * `API_SERVER_KEY` makes a bearer key mandatory (checked before the body is read, by the server's
 * request guard). `usage` is what the model reported, summed over the turn's model calls.
 * This file checks and answers the HTTP request; the request itself goes through the gateway's
 * pipeline (`Gateway.runApi`, pipeline/api-turn.ts): pre_gateway_dispatch (a skip is a 403,
 * no model call), session lanes and busy mode, gateway.max_concurrent_runs, events and metrics.
 */
import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { TurnService } from '@hermes/agent';
import type { ChatMessage, Logger } from '@hermes/protocol';
import type { AsyncStore } from '@hermes/store';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { registerModelsRoutes } from './api/models-route.js';
import { registerResponsesRoute } from './api/responses-route.js';
import { bodySchema, chatCompletionsBodySchema, withTextContent } from './api/schemas.js';
import { failureMessage } from './failure-reply.js';
import { type ApiErrorType, sendApiError } from './http/api-error.js';
import type { ApiTurnOutcome, ApiTurnRequest } from './pipeline/api-turn.js';

/** The largest chat completions request body (a long conversation with its history). */
export const COMPLETIONS_BODY_LIMIT = 4 * 1024 * 1024;

/** What the API routes need besides the pipeline: their turns run in the gateway's turn service. */
export interface ApiPlatformDeps {
  apiKey: string | undefined;
  model: string;
  logger: Logger;
  sessions: Pick<AsyncStore['sessions'], 'create'>;
  transcripts: Pick<AsyncStore['transcripts'], 'append' | 'list'>;
  /** response id -> session, for the Responses API's `previous_response_id` (without it: no chaining) */
  responses?: Pick<AsyncStore['apiResponses'], 'record' | 'get'>;
  /** the process's secret redactor: applied to answers and errors (streamed deltas one by one) */
  redact?: (text: string) => string;
}

interface CompletionBody {
  model?: unknown;
  messages?: unknown;
  stream?: unknown;
  stream_options?: unknown;
  user?: unknown;
}

function apiError(reply: FastifyReply, status: number, message: string, type: ApiErrorType = 'invalid_request_error') {
  return sendApiError(reply, status, message, type, status === 400 ? 'invalid_request' : null);
}

const NO_USAGE = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };

function wantsStreamUsage(body: CompletionBody): boolean {
  return isRecord(body.stream_options) && body.stream_options.include_usage === true;
}

/** True when the request carries the configured bearer key (constant-time compare). */
export function bearerMatches(header: string | undefined, key: string): boolean {
  const m = /^Bearer\s+(.+)$/i.exec(header ?? '');
  if (!m?.[1]) return false;
  const a = Buffer.from(m[1]);
  const b = Buffer.from(key);
  return a.length === b.length && timingSafeEqual(a, b);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isToolCall(value: unknown): boolean {
  return (
    isRecord(value) &&
    typeof value.id === 'string' &&
    value.type === 'function' &&
    isRecord(value.function) &&
    typeof value.function.name === 'string' &&
    typeof value.function.arguments === 'string'
  );
}

/**
 * What is wrong with one message, or null: the shape the transcript stores (a message it cannot
 * store would fail the request with a 500, or poison the session when read back).
 */
function messageProblem(m: unknown, i: number): string | null {
  const at = `messages[${i}]`;
  if (!isRecord(m)) return `${at}: expected an object with role and content`;
  const { role, content } = m;
  if (role !== 'system' && role !== 'user' && role !== 'assistant' && role !== 'tool') {
    return `${at}.role: expected system, user, assistant or tool`;
  }
  if (typeof content !== 'string' && !(role === 'assistant' && (content === null || content === undefined))) {
    return `${at}.content: expected a string`;
  }
  if (role === 'assistant' && m.tool_calls !== undefined) {
    if (!Array.isArray(m.tool_calls) || !m.tool_calls.every(isToolCall)) {
      return `${at}.tool_calls: expected a list of {id, type: "function", function: {name, arguments}}`;
    }
  }
  if (role === 'tool' && typeof m.tool_call_id !== 'string') return `${at}.tool_call_id: expected a string`;
  return null;
}

function isMessages(value: unknown): value is ChatMessage[] {
  return Array.isArray(value) && value.every((m, i) => messageProblem(m, i) === null);
}

/** What a `pre_gateway_dispatch` skip answers (403, code `refused_by_hook`): no model call was made. */
export const DISPATCH_REFUSAL = 'the request was refused by the gateway (a pre_gateway_dispatch hook skipped it)';
const STOPPING = 'the gateway is stopping; send the request again once it is back';

/** The gateway's way in for API requests (`Gateway.runApi`): the pipeline's stages, lanes and turn service. */
export interface ApiPipeline {
  runApi(request: ApiTurnRequest): Promise<ApiTurnOutcome>;
  /** the gateway's turn service: `/v1/responses` runs its turns there */
  readonly turns: Pick<TurnService, 'run'>;
}

/** Registers the route on `app`; its requests go through `pipeline`. */
export function registerApiPlatform(app: FastifyInstance, deps: ApiPlatformDeps, pipeline: ApiPipeline): void {
  const routeOptions = {
    bodyLimit: COMPLETIONS_BODY_LIMIT,
    config: { guard: 'api' },
    ...bodySchema(chatCompletionsBodySchema),
  };
  registerModelsRoutes(app, deps.model);
  registerResponsesRoute(app, deps, COMPLETIONS_BODY_LIMIT, pipeline.turns);
  app.post('/v1/chat/completions', routeOptions, async (request: FastifyRequest, reply: FastifyReply) => {
    if (deps.apiKey && !bearerMatches(request.headers.authorization, deps.apiKey)) {
      return apiError(
        reply,
        401,
        'Missing or wrong API key (Authorization: Bearer <API_SERVER_KEY>)',
        'authentication_error',
      );
    }
    const body = (request.body ?? {}) as CompletionBody;
    body.messages = withTextContent(body.messages);
    if (!Array.isArray(body.messages) || body.messages.length === 0) {
      return apiError(reply, 400, 'messages: expected a non-empty array of {role, content}');
    }
    const problem = body.messages.map(messageProblem).find((p) => p !== null);
    if (problem !== undefined || !isMessages(body.messages)) {
      return apiError(reply, 400, problem ?? 'messages: expected a non-empty array of {role, content}');
    }
    const last = body.messages.at(-1);
    if (last?.role !== 'user' || typeof last.content !== 'string') {
      return apiError(reply, 400, 'messages: the last message must be a user message with string content');
    }
    const header = request.headers['x-hermes-session'];
    const key =
      typeof header === 'string' && header ? header : typeof body.user === 'string' && body.user ? body.user : null;
    const redact = deps.redact ?? ((text: string) => text);
    const id = `chatcmpl-${randomUUID()}`;
    const created = Math.floor(Date.now() / 1000);
    const stream = body.stream === true;
    const controller = new AbortController();
    // the client went away before the answer was written: stop the turn
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) controller.abort();
    });
    const chunk = (delta: Record<string, unknown>, finish: string | null) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: deps.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const outcome = await pipeline.runApi({
      text: last.content,
      key,
      // stateless: the request's own messages are the history, and nothing is stored
      history: key ? [] : body.messages.slice(0, -1).filter((m) => m.role !== 'system'),
      signal: controller.signal,
      ...(stream ? { onDelta: (text: string) => reply.raw.write(chunk({ content: redact(text) }, null)) } : {}),
      onAdmitted: () => {
        if (!stream) return;
        reply.hijack();
        reply.raw.writeHead(200, {
          // headers the request guard set (CORS for an allowed origin)
          ...(reply.getHeaders() as Record<string, string>),
          'content-type': 'text/event-stream',
          'cache-control': 'no-cache',
          connection: 'keep-alive',
        });
        reply.raw.write(chunk({ role: 'assistant', content: '' }, null));
      },
    });
    if (outcome.kind === 'skipped') {
      return sendApiError(reply, 403, DISPATCH_REFUSAL, 'invalid_request_error', 'refused_by_hook');
    }
    if (outcome.kind === 'unavailable') {
      if (reply.sent || reply.raw.headersSent) {
        reply.raw.end(
          `data: ${JSON.stringify({ error: { message: STOPPING, type: 'server_error', code: 'unavailable' } })}\n\ndata: [DONE]\n\n`,
        );
        return reply;
      }
      return sendApiError(reply, 503, STOPPING, 'server_error', 'unavailable');
    }
    const { result, storeError } = outcome;
    const usage = result.usage ?? NO_USAGE;
    if (stream) {
      if (storeError !== null) {
        deps.logger.error({ error: String(storeError) }, 'api: the transcript could not be stored');
        reply.raw.end(
          `data: ${JSON.stringify({ error: { message: 'the answer could not be stored (see the gateway log)', type: 'server_error', code: 'storage_error' } })}\n\n`,
        );
        return reply;
      }
      if (result.status !== 'completed') {
        reply.raw.write(
          `data: ${JSON.stringify({ error: { message: failureMessage(result.error, result.status, deps.logger), type: 'server_error' } })}\n\n`,
        );
      } else {
        reply.raw.write(chunk({}, 'stop'));
        if (wantsStreamUsage(body)) {
          reply.raw.write(
            `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: deps.model, choices: [], usage })}\n\n`,
          );
        }
      }
      reply.raw.end('data: [DONE]\n\n');
      return reply;
    }
    // a storage failure (SQLITE_FULL included) is thrown: the server's error handler answers it
    if (storeError !== null) throw storeError;
    if (result.status !== 'completed') {
      return apiError(reply, 502, failureMessage(result.error, result.status, deps.logger), 'server_error');
    }
    return reply.send({
      id,
      object: 'chat.completion',
      created,
      model: deps.model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: result.finalText === null ? null : redact(result.finalText) },
          finish_reason: 'stop',
        },
      ],
      usage,
    });
  });
}
