/**
 * The OpenAI-compatible Chat Completions client: one request per model step, streaming or not,
 * with our own retry loop (the SDK's is off) so every HTTP attempt fires pre_/post_api_request
 * and backoff honours `retry-after`. Each attempt has a connect, a first-byte and an idle timeout;
 * the attempts together have a time budget (model.retry_budget_s): no attempt starts, and no
 * attempt waits for its first byte, past it. Errors come out as HermesError with stable codes and
 * a `detail` that says what happened (model-failure.ts).
 */

import {
  ERROR_CODES,
  HermesError,
  type HookInvoker,
  type HookName,
  type Logger,
  silentLogger,
  type ToolCall,
} from '@hermes/protocol';
import type OpenAI from 'openai';
import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions';
import { stepProblem } from './check-step.js';
import { completionChunks } from './completion-json.js';
import { type AttemptTimeouts, classifyModelFailure, type ModelErrorKind } from './model-failure.js';
import { loadModelSdk, type ModelSdk } from './model-sdk.js';
import { splitReasoning } from './reasoning.js';
import { abortableSleep, retryDelayMs } from './retry-policy.js';
import { accumulateStream } from './stream-step.js';

export type { ModelErrorKind } from './model-failure.js';

/** Sent when no key is configured: local servers ignore it, and the SDK refuses an empty key. */
export const PLACEHOLDER_API_KEY = 'not-needed';

/** How one HTTP attempt ended: an answer, an error (retried or not), or cut off by the caller's AbortSignal. */
export type ModelRequestOutcome = 'ok' | 'error' | 'interrupted';

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
  /** until the answer's first byte (a JSON answer's first byte comes when the model has finished): model.timeout_s */
  timeoutMs: number;
  /** until the TCP (and TLS) connection is up: model.connect_timeout_s (default 10 s; the process's first client sets it) */
  connectTimeoutMs?: number;
  /** between two chunks of an answer that has started: model.idle_timeout_s (default: timeoutMs) */
  idleTimeoutMs?: number;
  /** all attempts of one step together: model.retry_budget_s (default: no budget beyond maxRetries) */
  retryBudgetMs?: number;
  maxRetries: number;
  /** `count`, when the bus has it: a request hook without callbacks gets no payload built (nor awaited) */
  hooks: HookInvoker & { count?(hook: HookName): number };
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
  /** the answer's text, its thinking taken out (reasoning.ts) */
  content: string | null;
  /** the model's thinking, when it sent any (a reasoning field or a think block) */
  reasoning?: string;
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

  /**
   * One model step, retried on 429/5xx/timeouts/connection failures up to maxRetries times and
   * within the retry budget: a retry whose wait would end past the budget is not made, and an
   * attempt's first-byte timeout is cut to what is left of it.
   */
  async complete(request: ModelRequest): Promise<ModelStep> {
    const sleep = this.#options.sleep ?? abortableSleep;
    const attempts = this.#options.maxRetries + 1;
    const started = Date.now();
    const budgetEnds =
      this.#options.retryBudgetMs === undefined ? Number.POSITIVE_INFINITY : started + this.#options.retryBudgetMs;
    let first: HermesError | null = null;
    let last: HermesError | null = null;
    let made = 0;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (request.signal?.aborted) throw new InterruptedError();
      made = attempt;
      const firstByteMs = Math.max(1, Math.min(this.#options.timeoutMs, budgetEnds - Date.now()));
      const result = await this.#attempt(request, attempt, firstByteMs);
      if (result.ok) return result.step;
      first ??= result.error;
      last = result.error;
      if (!result.retry || attempt === attempts) break;
      const delay = retryDelayMs(attempt, result.waitMs);
      // a retry needs a second of the budget after its wait to be worth making
      if (Date.now() + delay + 1_000 > budgetEnds) break;
      this.#logger.warn(
        { attempt, delayMs: delay, code: result.error.code },
        `model request failed (${result.error.message}); retrying in ${delay} ms`,
      );
      if (!(await sleep(delay, request.signal))) throw new InterruptedError();
    }
    const error = last ?? new HermesError(ERROR_CODES.MODEL_RESPONSE, 'model request failed');
    if (!error.retryable || made === 1) throw error;
    const took = Math.round((Date.now() - started) / 1000);
    // the first attempt's words when the last failed the same way (its timeout was not cut by the budget)
    const said = first?.code === error.code ? first.detail : error.detail;
    throw new HermesError(error.code, `${error.message} (gave up after ${made} attempts in ${took} s)`, {
      cause: error,
      ...(said !== undefined ? { detail: `${said.replace(/\.$/, '')}, ${made} attempts in ${took} s` } : {}),
    });
  }

  /** The timeouts of an attempt whose first-byte timeout is `firstByteMs`. */
  #timeouts(firstByteMs: number): AttemptTimeouts {
    return {
      connectMs: this.#options.connectTimeoutMs ?? 10_000,
      firstByteMs,
      idleMs: this.#options.idleTimeoutMs ?? this.#options.timeoutMs,
    };
  }

  /** The SDK client over the shared pool, built on first use. */
  #sdkClient(sdk: ModelSdk): OpenAI {
    this.#client ??= new sdk.OpenAI({
      apiKey: this.#apiKey,
      baseURL: this.#options.baseUrl,
      maxRetries: 0,
      timeout: this.#options.timeoutMs,
      fetch: sdk.fetchWith({ idleMs: this.#timeouts(this.#options.timeoutMs).idleMs }),
      ...(this.#options.headers ? { defaultHeaders: { ...this.#options.headers } } : {}),
    });
    return this.#client;
  }

  async #attempt(request: ModelRequest, attempt: number, firstByteMs: number): Promise<Attempt> {
    const { hooks } = this.#options;
    // the request hooks only observe: without callbacks, no payload is built and nothing awaited
    const observed = (hook: 'pre_api_request' | 'post_api_request') => hooks.count?.(hook) !== 0;
    const timeouts = this.#timeouts(firstByteMs);
    const sdk = await loadModelSdk({ connectTimeoutMs: timeouts.connectMs });
    const streaming = request.onDelta !== undefined;
    const body: ChatCompletionCreateParams = streaming
      ? { ...request.body, stream: true, stream_options: { include_usage: true } }
      : { ...request.body, stream: false };
    if (observed('pre_api_request')) {
      await hooks.invoke('pre_api_request', {
        method: 'POST',
        url: this.#url,
        headers: { 'content-type': 'application/json', authorization: 'Bearer [REDACTED]' },
        body: body as unknown as Record<string, unknown>,
        sessionId: request.sessionId,
        attempt,
      });
    }
    const started = performance.now();
    let status = 0;
    let emitted = false;
    try {
      let step: ModelStep;
      if (body.stream) {
        const { data, response } = await this.#sdkClient(sdk)
          .chat.completions.create(body, { signal: request.signal, timeout: firstByteMs })
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
            body: completionChunks(body),
            firstByteMs,
            idleMs: timeouts.idleMs,
            signal: request.signal,
          });
          status = posted.status;
          data = posted.data as OpenAI.ChatCompletion;
        } else {
          const answer = await this.#sdkClient(sdk)
            .chat.completions.create(body, { signal: request.signal, timeout: firstByteMs })
            .withResponse();
          status = answer.response.status;
          data = answer.data;
        }
        const choice = data.choices?.[0];
        if (!choice)
          throw new HermesError(ERROR_CODES.MODEL_RESPONSE, 'model returned no choices', { retryable: true });
        const message = choice.message as typeof choice.message & { reasoning_content?: unknown; reasoning?: unknown };
        // a content that is not a string is left for stepProblem to report
        const raw: unknown = choice.message.content ?? null;
        const split = typeof raw === 'string' ? splitReasoning(raw) : { text: raw as string | null, reasoning: null };
        const field = [message.reasoning_content, message.reasoning].find((r) => typeof r === 'string' && r !== '');
        const reasoning = [field as string | undefined, split.reasoning].filter((r) => r != null).join('\n\n');
        step = {
          content: split.text,
          ...(reasoning !== '' ? { reasoning } : {}),
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
      if (observed('post_api_request')) {
        await hooks.invoke('post_api_request', {
          method: 'POST',
          url: this.#url,
          statusCode: status,
          response: { finish_reason: step.finishReason, usage: step.usage, tool_calls: step.toolCalls.length },
          sessionId: request.sessionId,
          attempt,
          durationMs: Math.round(durationMs),
        });
      }
      return { ok: true, step };
    } catch (err) {
      if (err instanceof sdk.OpenAI.APIUserAbortError || request.signal?.aborted) {
        this.#options.observer?.(performance.now() - started, 'interrupted', null, status);
        throw new InterruptedError();
      }
      const failure = classifyModelFailure(err, {
        sdk: sdk.OpenAI,
        where: this.#options.baseUrl,
        apiKey: this.#options.apiKey,
        status,
        timeouts,
      });
      this.#options.observer?.(performance.now() - started, 'error', failure.kind, failure.status);
      if (observed('post_api_request')) {
        await hooks.invoke('post_api_request', {
          method: 'POST',
          url: this.#url,
          statusCode: failure.status,
          response: { error: failure.error.message },
          sessionId: request.sessionId,
          attempt,
          durationMs: Math.round(performance.now() - started),
        });
      }
      // a stream that already showed text cannot be replayed without duplicating it
      return { ok: false, error: failure.error, waitMs: failure.waitMs, retry: failure.error.retryable && !emitted };
    }
  }
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
