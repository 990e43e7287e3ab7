/**
 * The model providers of one process: the profiles plugins registered (read at call time), the
 * `custom` profile filled from model.base_url / model.api_key / model.default (so a config without
 * model.provider works as it always did), the primary choice (model.provider + model.default or
 * --provider / --model) and model.fallback's chain, and one ModelClient per provider, built on first use.
 */
import { ERROR_CODES, HermesError, type ModelProviderProfile } from '@hermes/protocol';
import type { ModelClient } from '../model-client.js';
import { choiceLabel, type ModelChoice, parseModelChoice } from './model-choice.js';

/** The provider that reads model.base_url and model.api_key (and the default of model.provider). */
export const CUSTOM_PROVIDER = 'custom';

/** A profile with its key read from the environment (never printed: `hasKey` is what listings show). */
export interface ResolvedProfile extends Readonly<ModelProviderProfile> {
  apiKey: string;
  /** who registered it: the plugin key, or `config` for `custom` without its plugin */
  plugin: string;
}

export interface ModelProvidersOptions {
  /** the registered profiles, read at call time (PluginRegistries.modelProviders) */
  registered: () => Iterable<{ plugin: string; profile: Readonly<ModelProviderProfile> }>;
  /**
   * config's model section: `provider` (or --provider), `model` the primary's model ("" for the
   * profile's default: --model, else model.default when the provider is model.provider's), and
   * model.default, base_url and api_key (the `custom` profile)
   */
  config: {
    provider: string;
    model: string;
    default: string;
    base_url: string;
    api_key: string;
    /** model.fallback: one `provider:model`, or a chain of them tried in order */
    fallback?: string | readonly string[] | undefined;
  };
  env: Readonly<Record<string, string | undefined>>;
  /** builds the client of one provider (called once per provider, on its first use) */
  makeClient: (profile: ResolvedProfile) => ModelClient;
  /** the client already built from model.base_url / model.api_key: `custom` uses it */
  customClient?: ModelClient;
}

export class ModelProviders {
  readonly #options: ModelProvidersOptions;
  readonly #clients = new Map<string, ModelClient>();

  constructor(options: ModelProvidersOptions) {
    this.#options = options;
    if (options.customClient) this.#clients.set(CUSTOM_PROVIDER, options.customClient);
  }

  /** Every known provider name, sorted (`custom` always among them). */
  names(): string[] {
    const names = new Set([CUSTOM_PROVIDER]);
    for (const r of this.#options.registered()) names.add(r.profile.name);
    return [...names].sort();
  }

  /** The profile named `name` with its key, or undefined. */
  profile(name: string): ResolvedProfile | undefined {
    let found: { plugin: string; profile: Readonly<ModelProviderProfile> } | undefined;
    for (const r of this.#options.registered()) if (r.profile.name === name) found = r;
    const { config, env } = this.#options;
    if (name === CUSTOM_PROVIDER) {
      const base = found?.profile;
      return {
        ...base,
        name,
        baseUrl: config.base_url,
        apiKeyEnv: base?.apiKeyEnv ?? '',
        apiKey: config.api_key,
        defaultModel: config.default || (base?.defaultModel ?? ''),
        plugin: found?.plugin ?? 'config',
      };
    }
    if (!found) return undefined;
    const apiKey = found.profile.apiKeyEnv === '' ? '' : (env[found.profile.apiKeyEnv] ?? '');
    return { ...found.profile, apiKey, plugin: found.plugin };
  }

  defaultModel(name: string): string | undefined {
    return this.profile(name)?.defaultModel;
  }

  /** The configured provider and model (model.provider, model.default, else the profile's default model). */
  primary(): ModelChoice {
    const { config } = this.#options;
    const profile = this.#known(config.provider, 'model.provider');
    const model = config.model || profile.defaultModel;
    if (model === '') {
      throw new HermesError(
        ERROR_CODES.CONFIG_KEY,
        `no model configured: set model.default (or HERMES_INFERENCE_MODEL), or use a provider with a default model`,
      );
    }
    return { provider: profile.name, model };
  }

  /** model.fallback's chain, parsed, in order (empty when unset). Throws a CONFIG_KEY error naming a bad value. */
  fallbacks(): ModelChoice[] {
    const value = this.#options.config.fallback;
    const texts = value === undefined ? [] : typeof value === 'string' ? [value] : value;
    return texts
      .filter((text) => text.trim() !== '')
      .map((text) => {
        const parsed = parseModelChoice(text, this, this.#options.config.provider);
        if (!parsed.ok) throw new HermesError(ERROR_CODES.CONFIG_KEY, `model.fallback "${text}": ${parsed.error}`);
        this.#known(parsed.choice.provider, 'model.fallback');
        return parsed.choice;
      });
  }

  /** The first of model.fallback's chain; null when unset. */
  fallback(): ModelChoice | null {
    return this.fallbacks()[0] ?? null;
  }

  /** The active (model.provider) profile's context window, for model.context_length's default. */
  contextLength(): number | undefined {
    return this.profile(this.#options.config.provider)?.contextLength;
  }

  /** The client of `provider`, built on first use and kept (its keep-alive pool with it). */
  client(provider: string): ModelClient {
    let client = this.#clients.get(provider);
    if (!client) {
      client = this.#options.makeClient(this.#known(provider, 'the model provider'));
      this.#clients.set(provider, client);
    }
    return client;
  }

  label(choice: ModelChoice): string {
    return choiceLabel(choice);
  }

  #known(name: string, what: string): ResolvedProfile {
    const profile = this.profile(name);
    if (!profile) {
      throw new HermesError(
        ERROR_CODES.CONFIG_KEY,
        `${what}: unknown model provider "${name}" (known: ${this.names().join(', ')})`,
      );
    }
    return profile;
  }
}
