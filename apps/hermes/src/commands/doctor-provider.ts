/** `hermes doctor`'s view of the model: model.provider's (or --provider's) profile as model.* keys to probe. */
import { CUSTOM_PROVIDER, ModelProviders } from '@hermes/agent';
import type { HermesConfig } from '@hermes/config';
import type { PluginRegistries } from '@hermes/plugins';
import type { GlobalOptions } from '../main.js';

export type ProviderConfig = { ok: true; config: HermesConfig } | { ok: false; error: string };

/** `custom`: the config as it is; another provider: its base URL, key and model in model.*. */
export function providerConfig(
  config: HermesConfig,
  registries: PluginRegistries,
  global: Pick<GlobalOptions, 'provider' | 'model'>,
): ProviderConfig {
  const provider = global.provider ?? config.model.provider;
  if (provider === CUSTOM_PROVIDER) return { ok: true, config };
  const providers = new ModelProviders({
    registered: () => registries.modelProviders.values(),
    config: {
      ...config.model,
      provider,
      model: global.model ?? (provider === config.model.provider ? config.model.default : ''),
    },
    env: process.env,
    makeClient: () => {
      throw new Error('doctor builds no clients');
    },
  });
  try {
    const primary = providers.primary();
    const profile = providers.profile(primary.provider);
    if (!profile) return { ok: false, error: `unknown model provider "${provider}"` };
    const model = { ...config.model, base_url: profile.baseUrl, api_key: profile.apiKey, default: primary.model };
    return { ok: true, config: { ...config, model } };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}
