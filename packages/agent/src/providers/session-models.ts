/**
 * Which model each session's turns use: the one `/model` stored for the session (state.db's
 * session_models), else the configured primary; and the caller a turn runs on (with
 * model.fallback's chain behind it). A stored choice whose provider is gone falls back to the primary.
 */
import type { Logger, MaybePromise } from '@hermes/protocol';
import { FallbackCaller, type ModelCaller } from './fallback-caller.js';
import { choiceLabel, type ModelChoice, type ParsedChoice, parseModelChoice } from './model-choice.js';
import type { ModelProviders } from './model-providers.js';

/** Where sessions' choices are kept (the store's sessionModels repository satisfies it). */
export interface SessionModelStore {
  get(sessionId: string): MaybePromise<{ provider: string; model: string } | undefined>;
  set(sessionId: string, provider: string, model: string): MaybePromise<void>;
  clear(sessionId: string): MaybePromise<boolean>;
}

/** What a turn runs on: the model to name in the request, the caller, and the answer's note. */
export interface TurnModel {
  model: string;
  client: ModelCaller;
  /** a line for the answer when the fallback answered this turn, else null */
  note(): string | null;
  /** the context window of the session's provider (its profile's contextLength), when it declares one */
  contextLength?: number | undefined;
}

/** What TurnService asks for each turn (optional: without it every turn uses its own client and model). */
export interface TurnModelSource {
  forTurn(sessionId: string): MaybePromise<TurnModel>;
}

export class SessionModels implements TurnModelSource {
  readonly providers: ModelProviders;
  readonly #store: SessionModelStore | null;
  readonly #logger: Logger;
  readonly #primary: ModelChoice;

  /** `primary`: the process's choice (model.provider / --provider, model.default / --model) */
  constructor(providers: ModelProviders, store: SessionModelStore | null, logger: Logger, primary?: ModelChoice) {
    this.providers = providers;
    this.#store = store;
    this.#logger = logger;
    this.#primary = primary ?? providers.primary();
  }

  primary(): ModelChoice {
    return this.#primary;
  }

  /** The session's model: its `/model` choice when its provider is still known, else the primary. */
  async current(sessionId: string | null): Promise<ModelChoice> {
    const stored = sessionId === null ? undefined : await this.#store?.get(sessionId);
    if (stored && this.providers.profile(stored.provider)) return stored;
    if (stored) {
      this.#logger.warn(
        { sessionId, provider: stored.provider },
        `session ${sessionId} chose model provider "${stored.provider}", which is no longer loaded; using ${choiceLabel(this.#primary)}`,
      );
    }
    return this.#primary;
  }

  /** The context window of the session's provider (its profile's contextLength), for model.context_length's default. */
  async contextLength(sessionId: string | null): Promise<number | undefined> {
    return this.providers.profile((await this.current(sessionId)).provider)?.contextLength;
  }

  /** Reads `/model`'s argument against the session's current provider. */
  async parse(text: string, sessionId: string | null): Promise<ParsedChoice> {
    return parseModelChoice(text, this.providers, (await this.current(sessionId)).provider);
  }

  /** Stores the session's choice (the primary itself clears it); later turns use it. */
  async choose(sessionId: string, choice: ModelChoice): Promise<void> {
    if (!this.#store) throw new Error('this host keeps no per-session model');
    const p = this.#primary;
    if (choice.provider === p.provider && choice.model === p.model) await this.#store.clear(sessionId);
    else await this.#store.set(sessionId, choice.provider, choice.model);
  }

  async forTurn(sessionId: string): Promise<TurnModel> {
    const choice = await this.current(sessionId);
    const chain = this.providers.fallbacks().map((f) => ({ choice: f, client: this.providers.client(f.provider) }));
    const caller = new FallbackCaller({ choice, client: this.providers.client(choice.provider) }, chain, this.#logger);
    const contextLength = this.providers.profile(choice.provider)?.contextLength;
    return { model: choice.model, client: caller, note: () => caller.note(), contextLength };
  }
}
