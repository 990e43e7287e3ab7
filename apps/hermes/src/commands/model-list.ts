/**
 * `hermes model list [--json]`: every model provider profile (bundled and plugin ones, after user
 * overrides) with its base URL, whether its key is set (never the key), its default model and
 * context length; the active one (model.provider or --provider) is marked.
 */
import { CUSTOM_PROVIDER, ModelProviders } from '@hermes/agent';
import type { HermesConfig } from '@hermes/config';
import type { PluginRegistries } from '@hermes/plugins';
import type { GlobalOptions } from '../main.js';
import { pluginRegistrations } from '../plugin-registrations.js';
import { loadSettings } from '../runtime.js';

/** One row of the listing (the JSON form's element). */
export interface ModelProviderEntry {
  name: string;
  active: boolean;
  base_url: string;
  /** where the key comes from: an environment variable, `model.api_key` for custom, or null for none */
  api_key_env: string | null;
  key_set: boolean;
  default_model: string;
  context_length: number | null;
  /** the plugin that registered it (`config` for custom without its plugin) */
  plugin: string;
}

export async function modelProviderEntries(options: GlobalOptions): Promise<ModelProviderEntry[]> {
  const { home, config, env } = loadSettings(options);
  const { registries } = await pluginRegistrations({ home, config, env });
  return providerEntries(config, env, registries, options.provider ?? config.model.provider);
}

/** The entries of the providers `registries` hold (doctor passes the registrations it loaded already). */
export function providerEntries(
  config: HermesConfig,
  env: NodeJS.ProcessEnv,
  registries: PluginRegistries,
  active: string,
): ModelProviderEntry[] {
  const providers = new ModelProviders({
    registered: () => registries.modelProviders.values(),
    config: { ...config.model, provider: active, model: '' },
    env,
    makeClient: () => {
      throw new Error('listing builds no clients');
    },
  });
  return providers.names().map((name) => {
    const p = providers.profile(name);
    const custom = name === CUSTOM_PROVIDER;
    return {
      name,
      active: name === active,
      base_url: p?.baseUrl ?? '',
      api_key_env: custom ? 'model.api_key' : p?.apiKeyEnv ? p.apiKeyEnv : null,
      key_set: (p?.apiKey ?? '') !== '',
      default_model: p?.defaultModel ?? '',
      context_length: p?.contextLength ?? null,
      plugin: p?.plugin ?? '',
    };
  });
}

/** Prints the providers as a table, or with --json as an array of entries. */
export async function modelList(options: GlobalOptions): Promise<void> {
  const entries = await modelProviderEntries(options);
  if (options.json) {
    process.stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
    return;
  }
  const rows = [
    ['', 'PROVIDER', 'BASE URL', 'KEY', 'DEFAULT MODEL', 'CONTEXT'],
    ...entries.map((e) => [
      e.active ? '*' : '',
      e.name,
      e.base_url || '-',
      e.api_key_env === null ? 'not needed' : `${e.api_key_env}: ${e.key_set ? 'set' : 'not set'}`,
      e.default_model || '-',
      e.context_length === null ? '-' : String(e.context_length),
    ]),
  ];
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  const lines = rows.map((r) =>
    r
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd(),
  );
  process.stdout.write(`${lines.join('\n')}\n* active (model.provider); switch one chat with /model provider:model\n`);
}
