/**
 * The CLI's and gateway's model providers: the registered profiles (after the plugins load), the
 * primary from model.provider / --provider and model.default / --model, model.fallback, one
 * client per provider, and each session's `/model` choice kept in state.db.
 */
import {
  type ModelCaller,
  type ModelClient,
  ModelProviders,
  type SessionModelStore,
  SessionModels,
} from '@hermes/agent';
import type { HermesConfig } from '@hermes/config';
import type { PluginRegistries } from '@hermes/plugins';
import type { Logger } from '@hermes/protocol';
import type { GlobalOptions } from './main.js';

export interface ProvidersSetup {
  global: GlobalOptions;
  config: HermesConfig;
  env: Readonly<Record<string, string | undefined>>;
  registries: PluginRegistries;
  store: { sessionModels: SessionModelStore };
  logger: Logger;
  /** the client built from model.base_url / model.api_key (the `custom` provider's) */
  customClient: ModelClient;
  makeClient: (baseUrl: string, apiKey: string, headers?: Readonly<Record<string, string>>) => ModelClient;
}

/** The model providers over the loaded plugins' profiles. Throws a CONFIG_KEY error for an unknown provider. */
export function sessionModels(o: ProvidersSetup): SessionModels {
  const provider = o.global.provider ?? o.config.model.provider;
  // model.default belongs with model.provider: `--provider other` alone asks for other's default model
  const ownDefault = provider === o.config.model.provider || provider === 'custom';
  const providers = new ModelProviders({
    registered: () => o.registries.modelProviders.values(),
    config: {
      provider,
      model: o.global.model ?? (ownDefault ? o.config.model.default : ''),
      default: o.config.model.default,
      base_url: o.config.model.base_url,
      api_key: o.config.model.api_key,
      fallback: o.config.model.fallback,
    },
    env: o.env,
    makeClient: (p) => o.makeClient(p.baseUrl, p.apiKey, p.headers),
    customClient: o.customClient,
  });
  const models = new SessionModels(providers, o.store.sessionModels, o.logger.child({ component: 'model' }));
  providers.fallbacks(); // a bad model.fallback fails at start, not in the first failing turn
  return models;
}

/** ctx.llm's caller: the primary provider once the plugins have loaded, `early` before that. */
export function lazyPrimaryCaller(models: () => SessionModels | null, early: ModelClient): ModelCaller {
  return {
    complete(request) {
      const m = models();
      if (m === null) return early.complete(request);
      const primary = m.primary();
      return m.providers
        .client(primary.provider)
        .complete({ ...request, body: { ...request.body, model: primary.model } });
    },
  };
}

/**
 * model.context_length's default: the profile of the session's provider (`/model`), or of
 * model.provider without a session, else 128000 tokens. An explicit model.context_length wins.
 */
export async function defaultContextLength(
  models: SessionModels | null,
  sessionId: string | null = null,
  fallback = 128_000,
): Promise<number> {
  return (sessionId === null ? models?.providers.contextLength() : await models?.contextLength(sessionId)) ?? fallback;
}
