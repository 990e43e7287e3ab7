/**
 * One turn's model caller: the session's model, and model.fallback when the primary still fails
 * after its own retries with a server-side failure (5xx, 429, timeouts, no connection, an unusable
 * answer). A 400 (the request's own fault), an auth error or an interrupt never falls back. Once a
 * turn fell back, its later steps go to the fallback too, and `note()` says so once.
 */
import { HermesError, type Logger } from '@hermes/protocol';
import { InterruptedError, type ModelClient, type ModelRequest, type ModelStep } from '../model-client.js';
import { choiceLabel, type ModelChoice } from './model-choice.js';

/** What a turn calls the model through (a ModelClient, or this). */
export type ModelCaller = Pick<ModelClient, 'complete'>;

export interface RoutedModel {
  choice: ModelChoice;
  client: ModelCaller;
}

/** The line added to an answer the fallback gave. */
export function fallbackNote(fallback: ModelChoice): string {
  return `(answered by ${choiceLabel(fallback)}: the primary model failed)`;
}

/** True for a failure the primary's own retries could not fix: the kind another endpoint may not have. */
export function shouldFallBack(err: unknown): boolean {
  if (err instanceof InterruptedError) return false;
  // ModelClient wraps the last retryable error ("gave up after N attempts"): look down the cause chain
  for (let e: unknown = err, depth = 0; e instanceof HermesError && depth < 4; e = e.cause, depth++) {
    if (e.retryable) return true;
  }
  return false;
}

export class FallbackCaller implements ModelCaller {
  readonly #primary: RoutedModel;
  readonly #fallback: RoutedModel | null;
  readonly #logger: Logger;
  #switched = false;

  constructor(primary: RoutedModel, fallback: RoutedModel | null, logger: Logger) {
    this.#primary = primary;
    const same =
      fallback !== null &&
      fallback.choice.provider === primary.choice.provider &&
      fallback.choice.model === primary.choice.model;
    this.#fallback = same ? null : fallback;
    this.#logger = logger;
  }

  /** The note for this turn's answer: set when the fallback answered. */
  note(): string | null {
    return this.#switched && this.#fallback ? fallbackNote(this.#fallback.choice) : null;
  }

  async complete(request: ModelRequest): Promise<ModelStep> {
    const fallback = this.#fallback;
    if (this.#switched && fallback) return this.#viaFallback(fallback, request);
    let streamed = false;
    const onDelta = request.onDelta;
    const primaryRequest: ModelRequest = onDelta
      ? {
          ...request,
          onDelta: (text) => {
            streamed = true;
            onDelta(text);
          },
        }
      : request;
    try {
      return await this.#primary.client.complete(primaryRequest);
    } catch (err) {
      // an answer already partly shown cannot be continued by another model
      if (!fallback || streamed || !shouldFallBack(err) || request.signal?.aborted) throw err;
      this.#logger.warn(
        {
          sessionId: request.sessionId,
          primary: choiceLabel(this.#primary.choice),
          fallback: choiceLabel(fallback.choice),
          error: err instanceof Error ? err.message : String(err),
          code: err instanceof HermesError ? err.code : undefined,
        },
        `the primary model ${choiceLabel(this.#primary.choice)} failed; model.fallback ${choiceLabel(fallback.choice)} answers`,
      );
      this.#switched = true;
      return this.#viaFallback(fallback, request);
    }
  }

  #viaFallback(fallback: RoutedModel, request: ModelRequest): Promise<ModelStep> {
    return fallback.client.complete({ ...request, body: { ...request.body, model: fallback.choice.model } });
  }
}
