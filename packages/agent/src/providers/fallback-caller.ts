/**
 * One turn's model caller: the session's model, and model.fallback's chain when the primary still
 * fails after its own retries with a server-side failure (5xx, 429, timeouts, no connection, an
 * unusable answer): each fallback in order, the next one when it fails the same way. A 400 (the
 * request's own fault), an auth error or an interrupt never falls back. Once a turn fell back, its
 * later steps go to the model that answered, and `note()` names it once.
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

/** The line added to an answer a fallback gave; `failedFallbacks`: the fallbacks tried before it. */
export function fallbackNote(fallback: ModelChoice, failedFallbacks: readonly ModelChoice[] = []): string {
  const before = failedFallbacks.map(choiceLabel);
  const failed =
    before.length === 0
      ? 'the primary model failed'
      : `the primary model and ${before.length === 1 ? 'fallback' : 'fallbacks'} ${before.join(', ')} failed`;
  return `(answered by ${choiceLabel(fallback)}: ${failed})`;
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

const same = (a: ModelChoice, b: ModelChoice) => a.provider === b.provider && a.model === b.model;

export class FallbackCaller implements ModelCaller {
  readonly #primary: RoutedModel;
  /** the chain without the primary itself and without repeats */
  readonly #chain: RoutedModel[] = [];
  readonly #logger: Logger;
  /** -1: the primary; else the index in the chain of the model this turn's steps go to */
  #active = -1;

  /** `fallbacks`: model.fallback's chain in order (one model, or null for none, as before a chain) */
  constructor(primary: RoutedModel, fallbacks: RoutedModel | readonly RoutedModel[] | null, logger: Logger) {
    this.#primary = primary;
    const given = fallbacks === null ? [] : Array.isArray(fallbacks) ? fallbacks : [fallbacks as RoutedModel];
    for (const f of given) {
      if (!same(f.choice, primary.choice) && !this.#chain.some((c) => same(c.choice, f.choice))) this.#chain.push(f);
    }
    this.#logger = logger;
  }

  /** The note for this turn's answer: set when a fallback answered. */
  note(): string | null {
    const answered = this.#chain[this.#active];
    if (!answered) return null;
    return fallbackNote(
      answered.choice,
      this.#chain.slice(0, this.#active).map((c) => c.choice),
    );
  }

  async complete(request: ModelRequest): Promise<ModelStep> {
    for (;;) {
      const index = this.#active;
      const routed = index < 0 ? this.#primary : (this.#chain[index] as RoutedModel);
      let streamed = false;
      const onDelta = request.onDelta;
      const body = index < 0 ? request.body : { ...request.body, model: routed.choice.model };
      const attempt: ModelRequest = {
        ...request,
        body,
        ...(onDelta
          ? {
              onDelta: (text: string) => {
                streamed = true;
                onDelta(text);
              },
            }
          : {}),
      };
      try {
        return await routed.client.complete(attempt);
      } catch (err) {
        const next = this.#chain[index + 1];
        // an answer already partly shown cannot be continued by another model
        if (!next || streamed || !shouldFallBack(err) || request.signal?.aborted) throw err;
        const failed = choiceLabel(routed.choice);
        this.#logger.warn(
          {
            sessionId: request.sessionId,
            primary: choiceLabel(this.#primary.choice),
            failed,
            fallback: choiceLabel(next.choice),
            error: err instanceof Error ? err.message : String(err),
            code: err instanceof HermesError ? err.code : undefined,
          },
          `the ${index < 0 ? 'primary model' : 'fallback'} ${failed} failed; model.fallback ${choiceLabel(next.choice)} answers`,
        );
        this.#active = index + 1;
      }
    }
  }
}
