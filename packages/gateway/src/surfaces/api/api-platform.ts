/**
 * The API platform, always on: `POST /v1/chat/completions`, OpenAI-compatible, streaming and not.
 * A session is keyed by the `x-hermes-session` header or the `user` field; without either the
 * request is stateless: its own messages are the history and nothing is written to state.db.
 * `API_SERVER_KEY` makes a bearer key mandatory (checked before the body is read, by the server's
 * request guard). `usage` is what the model reported, summed over the turn's model calls.
 * This file checks and answers the HTTP request; the request itself is a turn job of surface
 * `completions` through the gateway's stages (`Gateway.submitTurn`, intake/direct-intake.ts):
 * pre_gateway_dispatch (a skip is a 403, no model call), commands (their answer is the HTTP answer),
 * session lanes and busy mode, gateway.max_concurrent_runs, the session stage, events and metrics.
 */

import { randomUUID } from 'node:crypto';
import { type ChatMessage, type Logger, planFor, SESSION_KEYS, STATELESS_SESSION } from '@hermes/protocol';
import type { AsyncStore } from '@hermes/store';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  type ApiErrorType,
  DISPATCH_REFUSAL,
  limitedAnswer,
  STOPPING,
  sendApiError,
  streamErrorEvent,
} from '../../http/api-error.js';
import { bearerMatches } from '../../http/bearer.js';
import { startEventStream } from '../../http/event-stream.js';
import { awaitedSink } from '../../intake/direct-intake.js';
import type { DirectSink, DirectTurnJob } from '../../pipeline/input.js';
import { failureCode } from '../../turn/failure-reply.js';
import { registerModelsRoutes } from './models-route.js';
import { registerResponsesRoute } from './responses-route.js';
import { bodySchema, chatCompletionsBodySchema, withTextContent } from './schemas.js';

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

/** The gateway's way in for API requests (`Gateway.submitTurn`): the stages of the job's plan, its lane, the turn stage. */
export interface ApiPipeline {
  submitTurn(job: Omit<DirectTurnJob, 'acceptedAt'>): void;
}

/**
 * A chat completion's job: keyed by `x-hermes-session` / `user` (`api:<name>`, a stored session),
 * else stateless (a lane of its own; `history`, the request's earlier messages, system messages left out).
 */
export function completionJob(
  text: string,
  key: string | null,
  history: readonly ChatMessage[],
  sink: DirectSink,
): Omit<DirectTurnJob, 'acceptedAt'> {
  const requestId = randomUUID();
  return {
    surface: 'completions',
    who: { platform: 'api', userId: key ?? 'api', chatId: key ?? requestId },
    sessionKey: key ? SESSION_KEYS.api(key) : SESSION_KEYS.apiStateless(requestId),
    input: { text, ...(key ? {} : { history: history.filter((m) => m.role !== 'system') }) },
    sink,
    plan: key ? planFor('completions') : planFor('completions', { session: STATELESS_SESSION }),
  };
}

/** Registers the route on `app`; its requests go through `pipeline`. */
export function registerApiPlatform(app: FastifyInstance, deps: ApiPlatformDeps, pipeline: ApiPipeline): void {
  const routeOptions = {
    bodyLimit: COMPLETIONS_BODY_LIMIT,
    config: { guard: 'api' },
    ...bodySchema(chatCompletionsBodySchema),
  };
  registerModelsRoutes(app, deps.model);
  registerResponsesRoute(app, deps, COMPLETIONS_BODY_LIMIT, pipeline);
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
    const { sink, outcome: settled } = awaitedSink(stream ? 'sse' : 'http', {
      signal: controller.signal,
      ...(stream ? { onDelta: (text: string) => reply.raw.write(chunk({ content: redact(text) }, null)) } : {}),
      onAdmitted: () => {
        if (!stream) return;
        startEventStream(reply);
        reply.raw.write(chunk({ role: 'assistant', content: '' }, null));
      },
    });
    // stateless: the request's own messages are the history, and nothing is stored
    pipeline.submitTurn(completionJob(last.content, key, body.messages.slice(0, -1), sink));
    const outcome = await settled;
    if (outcome.kind === 'skipped') {
      return sendApiError(reply, 403, DISPATCH_REFUSAL, 'invalid_request_error', 'refused_by_hook');
    }
    if (outcome.kind === 'unavailable') {
      if (reply.sent || reply.raw.headersSent) {
        reply.raw.end(`${streamErrorEvent(STOPPING, 'server_error', 'unavailable')}data: [DONE]\n\n`);
        return reply;
      }
      return sendApiError(reply, 503, STOPPING, 'server_error', 'unavailable');
    }
    if (outcome.kind === 'error') throw outcome.error;
    if (outcome.kind === 'limited') return limitedAnswer(reply, outcome);
    // a command's answer, or the turn's: answered alike
    const answer =
      outcome.kind === 'command'
        ? { text: redact(outcome.text), failure: null, usage: NO_USAGE, storeError: null }
        : { ...outcome, usage: outcome.result.usage ?? NO_USAGE };
    const { usage, storeError, failure } = answer;
    const code = outcome.kind === 'ran' ? failureCode(outcome.result.error, outcome.result.status) : 'server_error';
    if (stream) {
      if (storeError !== null) {
        deps.logger.error({ error: String(storeError) }, 'api: the transcript could not be stored');
        reply.raw.end(
          streamErrorEvent('the answer could not be stored (see the gateway log)', 'server_error', 'storage_error'),
        );
        return reply;
      }
      if (failure !== null) {
        reply.raw.write(streamErrorEvent(failure, 'server_error', code));
      } else {
        if (outcome.kind === 'command') reply.raw.write(chunk({ content: answer.text }, null));
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
    if (failure !== null) return sendApiError(reply, 502, failure, 'server_error', code);
    return reply.send({
      id,
      object: 'chat.completion',
      created,
      model: deps.model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: answer.text },
          finish_reason: 'stop',
        },
      ],
      usage,
    });
  });
}
