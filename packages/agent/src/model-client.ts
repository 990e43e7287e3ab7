/**
 * The OpenAI-compatible Chat Completions client: one request per model step, streaming or not,
 * with our own retry loop (the SDK's is off) so every HTTP attempt fires pre_/post_api_request
 * and backoff honours `retry-after`. Errors come out as HermesError with stable codes.
 */

import { ERROR_CODES, HermesError, type HookInvoker, type Logger, silentLogger, type ToolCall } from '@hermes/protocol';
import type OpenAI from 'openai';
import type { ChatCompletionChunk, ChatCompletionCreateParams } from 'openai/resources/chat/completions';
import { stepProblem } from './check-step.js';
import { completionJson } from './completion-json.js';
import { summarizeErrorText } from './error-summary.js';
import { loadModelSdk, type ModelSdk } from './model-sdk.js';
import { abortableSleep, isRetryableStatus, retryAfterMs, retryDelayMs } from './retry-policy.js';

/** Sent when no key is configured: local servers ignore it, and the SDK refuses an empty key. */
export const PLACEHOLDER_API_KEY = 'not-needed';

/** How one HTTP attempt ended: an answer, an error (retried or not), or cut off by the caller's AbortSignal. */
export type ModelRequestOutcome = 'ok' | 'error' | 'interrupted';

/** What went wrong: an HTTP error status, a timeout, no connection, or an unusable response body. */
export type ModelErrorKind = 'http' | 'timeout' | 'connection' | 'response';

/**
 * Told about every HTTP attempt (metrics): its duration, how it ended and, for an error, its kind
 * and HTTP status (0 when there was none). Called synchronously; must not throw.
 */
export type ModelRequestObserver = (
  durationMs: number,
  outcome: ModelRequestOutcome,
  errorKind: ModelErrorKind | null,
  status: number,
) => void;

export interface ModelClientOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  maxRetries: number;
  hooks: HookInvoker;
  logger?: Logger;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<boolean>;
  /** sees each HTTP attempt's duration and outcome */
  observer?: ModelRequestObserver;
  /** extra headers sent with every request (a model provider profile's `headers`) */
  headers?: Readonly<Record<string, string>>;
}

export interface ModelRequest {
  body: Omit<ChatCompletionCreateParams, 'stream' | 'stream_options'>;
  sessionId: string;
  signal?: AbortSignal;
  /** when given, the request streams and text deltas arrive here */
  onDelta?: (text: string) => void;
}

export interface ModelStep {
  content: string | null;
  toolCalls: ToolCall[];
  finishReason: string | null;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number } | null;
}

/** Thrown when the AbortSignal fired: the caller reports the turn as interrupted. */
export class InterruptedError extends HermesError {
  constructor() {
    super(ERROR_CODES.INTERRUPTED, 'interrupted');
    this.name = 'InterruptedError';
  }
}

type Attempt = { ok: true; step: ModelStep } | { ok: false; error: HermesError; waitMs: number | null; retry: boolean };

export class ModelClient {
  /** built on the first request, once the SDK is loaded (model-sdk.ts) */
  #client: OpenAI | null = null;
  readonly #options: ModelClientOptions;
  readonly #logger: Logger;
  readonly #url: string;
  readonly #apiKey: string;
  /** where the direct (non-streaming) requests go; null when the URL is unusable there (the SDK reports it) */
  readonly #endpoint: { origin: string; path: string } | null;

  constructor(options: ModelClientOptions) {
    this.#options = options;
    this.#logger = options.logger ?? silentLogger;
    this.#apiKey = options.apiKey || PLACEHOLDER_API_KEY;
    this.#url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
    this.#endpoint = directEndpoint(this.#url);
  }

  /** One model step, retried on 429/5xx/timeouts up to maxRetries times. */
  async complete(request: ModelRequest): Promise<ModelStep> {
    const sleep = this.#options.sleep ?? abortableSleep;
    const attempts = this.#options.maxRetries + 1;
    let last: HermesError | null = null;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (request.signal?.aborted) throw new InterruptedError();
      const result = await this.#attempt(request, attempt);
      if (result.ok) return result.step;
      last = result.error;
      if (!result.retry || attempt === attempts) break;
      const delay = retryDelayMs(attempt, result.waitMs);
      this.#logger.warn(
        { attempt, delayMs: delay, code: result.error.code },
        `model request failed (${result.error.message}); retrying in ${delay} ms`,
      );
      if (!(await sleep(delay, request.signal))) throw new InterruptedError();
    }
    const error = last ?? new HermesError(ERROR_CODES.MODEL_RESPONSE, 'model request failed');
    throw attempts > 1 && error.retryable
      ? new HermesError(error.code, `${error.message} (gave up after ${attempts} attempts)`, { cause: error })
      : error;
  }

  /** The SDK client over the shared pool, built on first use. */
  #sdkClient(sdk: ModelSdk): OpenAI {
    this.#client ??= new sdk.OpenAI({
      apiKey: this.#apiKey,
      baseURL: this.#options.baseUrl,
      maxRetries: 0,
      timeout: this.#options.timeoutMs,
      fetch: sdk.fetch,
      ...(this.#options.headers ? { defaultHeaders: { ...this.#options.headers } } : {}),
    });
    return this.#client;
  }

  async #attempt(request: ModelRequest, attempt: number): Promise<Attempt> {
    const { hooks } = this.#options;
    const sdk = await loadModelSdk();
    const streaming = request.onDelta !== undefined;
    const body: ChatCompletionCreateParams = streaming
      ? { ...request.body, stream: true, stream_options: { include_usage: true } }
      : { ...request.body, stream: false };
    await hooks.invoke('pre_api_request', {
      method: 'POST',
      url: this.#url,
      headers: { 'content-type': 'application/json', authorization: 'Bearer [REDACTED]' },
      body: body as unknown as Record<string, unknown>,
      sessionId: request.sessionId,
      attempt,
    });
    const started = performance.now();
    let status = 0;
    let emitted = false;
    try {
      let step: ModelStep;
      if (body.stream) {
        const { data, response } = await this.#sdkClient(sdk)
          .chat.completions.create(body, { signal: request.signal })
          .withResponse();
        status = response.status;
        step = await accumulateStream(data, (text) => {
          emitted = true;
          request.onDelta?.(text);
        });
        // the SDK ends an aborted stream quietly: a partial answer must not pass for a whole one
        if (request.signal?.aborted) throw new InterruptedError();
      } else {
        let data: OpenAI.ChatCompletion;
        if (this.#endpoint !== null) {
          // straight over the pool: the SDK's per-request work costs as much CPU as the exchange
          const posted = await sdk.postCompletion({
            dispatcher: sdk.agent,
            origin: this.#endpoint.origin,
            path: this.#endpoint.path,
            apiKey: this.#apiKey,
            ...(this.#options.headers ? { headers: this.#options.headers } : {}),
            body: completionJson(body),
            timeoutMs: this.#options.timeoutMs,
            signal: request.signal,
          });
          status = posted.status;
          data = posted.data as OpenAI.ChatCompletion;
        } else {
          const answer = await this.#sdkClient(sdk)
            .chat.completions.create(body, { signal: request.signal })
            .withResponse();
          status = answer.response.status;
          data = answer.data;
        }
        const choice = data.choices?.[0];
        if (!choice)
          throw new HermesError(ERROR_CODES.MODEL_RESPONSE, 'model returned no choices', { retryable: true });
        step = {
          content: choice.message.content ?? null,
          toolCalls: (choice.message.tool_calls ?? []).flatMap((c) =>
            c.type === 'function'
              ? [
                  {
                    id: c.id,
                    type: 'function' as const,
                    function: { name: c.function.name, arguments: c.function.arguments },
                  },
                ]
              : [],
          ),
          finishReason: choice.finish_reason ?? null,
          usage: data.usage ?? null,
        };
      }
      const problem = stepProblem(step);
      if (problem !== null) {
        throw new HermesError(ERROR_CODES.MODEL_RESPONSE, `model returned ${problem}`, { retryable: true });
      }
      const durationMs = performance.now() - started;
      this.#options.observer?.(durationMs, 'ok', null, status);
      await hooks.invoke('post_api_request', {
        method: 'POST',
        url: this.#url,
        statusCode: status,
        response: { finish_reason: step.finishReason, usage: step.usage, tool_calls: step.toolCalls.length },
        sessionId: request.sessionId,
        attempt,
        durationMs: Math.round(durationMs),
      });
      return { ok: true, step };
    } catch (err) {
      if (err instanceof sdk.OpenAI.APIUserAbortError || request.signal?.aborted) {
        this.#options.observer?.(performance.now() - started, 'interrupted', null, status);
        throw new InterruptedError();
      }
      const failure = this.#classify(sdk, err, status);
      this.#options.observer?.(performance.now() - started, 'error', failure.kind, failure.status);
      await hooks.invoke('post_api_request', {
        method: 'POST',
        url: this.#url,
        statusCode: failure.status,
        response: { error: failure.error.message },
        sessionId: request.sessionId,
        attempt,
        durationMs: Math.round(performance.now() - started),
      });
      // a stream that already showed text cannot be replayed without duplicating it
      return { ok: false, error: failure.error, waitMs: failure.waitMs, retry: failure.error.retryable && !emitted };
    }
  }

  #classify(
    sdk: ModelSdk,
    err: unknown,
    status: number,
  ): { error: HermesError; status: number; waitMs: number | null; kind: ModelErrorKind } {
    const where = this.#options.baseUrl;
    if (err instanceof HermesError) {
      const kind =
        err.code === ERROR_CODES.MODEL_HTTP
          ? 'http'
          : err.code === ERROR_CODES.MODEL_UNREACHABLE
            ? 'connection'
            : 'response';
      return { error: err, status, waitMs: null, kind };
    }
    if (err instanceof sdk.OpenAI.APIConnectionTimeoutError) {
      const error = new HermesError(ERROR_CODES.MODEL_UNREACHABLE, `model request to ${where} timed out`, {
        cause: err,
        retryable: true,
      });
      return { error, status: 0, waitMs: null, kind: 'timeout' };
    }
    if (err instanceof sdk.OpenAI.APIConnectionError) {
      const reason = causeText(err);
      const error = new HermesError(ERROR_CODES.MODEL_UNREACHABLE, `cannot reach model endpoint ${where}: ${reason}`, {
        cause: err,
        retryable: true,
      });
      return { error, status: 0, waitMs: null, kind: 'connection' };
    }
    if (err instanceof sdk.OpenAI.APIError && typeof err.status === 'number') {
      // an endpoint (or a proxy in front of it) may quote the key it was sent: the message goes to users
      const key = this.#options.apiKey;
      const detail = key.length >= 6 ? apiErrorDetail(err).split(key).join('[REDACTED]') : apiErrorDetail(err);
      const error = new HermesError(
        ERROR_CODES.MODEL_HTTP,
        `model endpoint ${where} answered HTTP ${err.status}: ${detail}`,
        {
          cause: err,
          retryable: isRetryableStatus(err.status),
        },
      );
      return { error, status: err.status, waitMs: retryAfterMs(err.headers), kind: 'http' };
    }
    const message = err instanceof Error ? err.message : String(err);
    const error = new HermesError(ERROR_CODES.MODEL_RESPONSE, `bad response from model endpoint ${where}: ${message}`, {
      cause: err,
      retryable: true,
    });
    return { error, status, waitMs: null, kind: 'response' };
  }
}

function causeText(err: Error): string {
  // APIConnectionError -> TypeError("fetch failed") -> the socket error (ECONNREFUSED, ENOTFOUND, ...)
  const outer = err.cause instanceof Error ? err.cause : null;
  const inner = outer?.cause instanceof Error ? (outer.cause as Error & { code?: unknown }) : null;
  if (inner) return typeof inner.code === 'string' ? inner.code : inner.message;
  return outer?.message ?? err.message;
}

function apiErrorDetail(err: InstanceType<typeof OpenAI.APIError>): string {
  const body = err.error as { message?: unknown } | undefined;
  const text = typeof body?.message === 'string' ? body.message : err.message.replace(/^\d{3}\s+/, '');
  return summarizeErrorText(text);
}

/** Tool calls one streamed step may carry (indices 0 to this - 1). */
export const MAX_STREAM_TOOL_CALLS = 1_000;

/** Folds a chunk stream into one step, calling onText for each content delta. */
async function accumulateStream(
  stream: AsyncIterable<ChatCompletionChunk>,
  onText: (t: string) => void,
): Promise<ModelStep> {
  let content = '';
  let sawContent = false;
  let finishReason: string | null = null;
  let usage: ModelStep['usage'] = null;
  let sawChoice = false;
  const calls: { id: string; name: string; args: string }[] = [];
  for await (const chunk of stream) {
    if (chunk.usage) usage = chunk.usage;
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    sawChoice = true;
    const delta = choice.delta;
    if (typeof delta?.content === 'string' && delta.content.length > 0) {
      sawContent = true;
      content += delta.content;
      onText(delta.content);
    }
    for (const piece of delta?.tool_calls ?? []) {
      // the index addresses an array slot: a huge one would make a sparse array whose walk blocks the loop
      if (!Number.isInteger(piece.index) || piece.index < 0 || piece.index >= MAX_STREAM_TOOL_CALLS) {
        throw new HermesError(ERROR_CODES.MODEL_RESPONSE, `model stream sent tool call index ${String(piece.index)}`, {
          retryable: true,
        });
      }
      let slot = calls[piece.index];
      if (!slot) {
        slot = { id: '', name: '', args: '' };
        calls[piece.index] = slot;
      }
      if (piece.id) slot.id = piece.id;
      if (piece.function?.name) slot.name += piece.function.name;
      if (piece.function?.arguments) slot.args += piece.function.arguments;
    }
    if (choice.finish_reason) finishReason = choice.finish_reason;
  }
  if (!sawChoice) throw new HermesError(ERROR_CODES.MODEL_RESPONSE, 'model stream had no choices', { retryable: true });
  return {
    content: sawContent ? content : null,
    toolCalls: calls
      .filter((c) => c !== undefined)
      .map((c, i) => ({
        id: c.id || `call_${i}`,
        type: 'function' as const,
        function: { name: c.name, arguments: c.args },
      })),
    finishReason,
    usage,
  };
}

/** origin and path of an http(s) URL without credentials; null otherwise */
function directEndpoint(url: string): { origin: string; path: string } | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.username || parsed.password) return null;
  return { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
}
