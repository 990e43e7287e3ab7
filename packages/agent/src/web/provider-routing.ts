/**
 * Which provider serves a web call. For search: `web.search_backend`, else `web.backend`, else the
 * first available provider that supports search; for extract and crawl the same with
 * `web.extract_backend`. A provider named by the capability's own key must work (an error says
 * why not); one named by `web.backend` is skipped for a capability it lacks. Auto-detection takes
 * providers in load order and the key-free `fallback` ones last. Failures explain themselves:
 * which key, which plugin, which env var.
 */
import { closest, type PluginRecord, providerSupports, type WebSearchProviderRegistration } from '@hermes/plugins';
import type { WebCapability, WebSearchProvider } from '@hermes/protocol';

export interface WebRoutingConfig {
  backend?: string | undefined;
  search_backend?: string | undefined;
  extract_backend?: string | undefined;
}

export interface WebProviderSource {
  /** the registry plugins fill (`PluginRegistries.webSearchProviders`) */
  providers: ReadonlyMap<string, WebSearchProviderRegistration>;
  /** the plugin records, to explain why a known provider is not loaded */
  plugins?: () => readonly PluginRecord[];
}

export type RouteVia = 'web.search_backend' | 'web.extract_backend' | 'web.backend' | 'auto';

export type WebRoute =
  | { ok: true; name: string; provider: WebSearchProvider; via: RouteVia }
  | { ok: false; error: string };

/** The capability's own config key. */
export function capabilityKey(capability: WebCapability): 'web.search_backend' | 'web.extract_backend' {
  return capability === 'search' ? 'web.search_backend' : 'web.extract_backend';
}

const WHAT: Record<WebCapability, string> = {
  search: 'search (web_search)',
  extract: 'extract (web_extract)',
  crawl: 'crawl (web_extract with mode "crawl")',
};

async function availability(provider: WebSearchProvider): Promise<{ ok: boolean; why?: string }> {
  try {
    return { ok: (await provider.isAvailable()) === true };
  } catch (err) {
    return { ok: false, why: `isAvailable() threw: ${err instanceof Error ? err.message : String(err)}` };
  }
}

function pluginsProviding(source: WebProviderSource, name: string): PluginRecord[] {
  const records = source.plugins?.() ?? [];
  return records.filter((r) => r.manifest?.providesWebProviders.includes(name) || r.key === `web/${name}`);
}

function envHint(record: PluginRecord): string {
  const vars = record.manifest?.requiresEnv ?? [];
  return vars.length > 0 ? vars.join(', ') : '';
}

/** Why a provider name has no registration: a plugin that is not loaded, or no such provider. */
function explainMissing(source: WebProviderSource, name: string, key: string): string {
  const [record] = pluginsProviding(source, name);
  const head = `${key} is "${name}", but`;
  if (record) {
    switch (record.state) {
      case 'env_missing':
        return `${head} its plugin ${record.key} is not loaded: set ${envHint(record) || 'its env vars'} (in the environment or HERMES_HOME/.env)`;
      case 'deps_missing':
        return `${head} its plugin ${record.key} is not loaded: ${record.error ?? 'an npm package it needs is missing'}`;
      case 'not_enabled':
        return `${head} its plugin ${record.key} is not enabled: run \`hermes plugins enable ${record.key}\` or add it to plugins.enabled`;
      case 'disabled':
        return `${head} its plugin ${record.key} is listed in plugins.disabled`;
      case 'failed':
        return `${head} its plugin ${record.key} failed to load: ${record.error ?? 'unknown error'}`;
      case 'enabled':
        return `${head} its plugin ${record.key} did not register a provider of that name`;
    }
  }
  const known = [...new Set([...source.providers.keys(), ...knownNames(source)])].sort();
  const hint = closest(name, known);
  return `${head} there is no web provider of that name${hint ? ` (did you mean "${hint}"?)` : ''}; known providers: ${known.join(', ') || 'none'}`;
}

function knownNames(source: WebProviderSource): string[] {
  return (source.plugins?.() ?? []).flatMap((r) => r.manifest?.providesWebProviders ?? []);
}

/** The named provider, an error, or null when `skipUnsupported` and it lacks the capability. */
async function useNamed(
  source: WebProviderSource,
  capability: WebCapability,
  name: string,
  key: RouteVia,
  skipUnsupported: boolean,
): Promise<WebRoute | null> {
  const reg = source.providers.get(name);
  if (!reg) return { ok: false, error: explainMissing(source, name, key) };
  if (!providerSupports(reg.provider, capability)) {
    if (skipUnsupported) return null;
    const others = await supporting(source, capability);
    return {
      ok: false,
      error: `${key} is "${name}", which does not support ${WHAT[capability]}${others.length > 0 ? `; providers that do: ${others.join(', ')}` : ''}`,
    };
  }
  const avail = await availability(reg.provider);
  if (!avail.ok) {
    const [record] = pluginsProviding(source, name);
    const env = record ? envHint(record) : '';
    const why = avail.why ?? (env ? `check ${env}` : 'check its configuration');
    return { ok: false, error: `${key} is "${name}", but that provider is not available: ${why}` };
  }
  return { ok: true, name, provider: reg.provider, via: key };
}

/** Names of available providers that support the capability, in auto-detection order. */
async function supporting(source: WebProviderSource, capability: WebCapability): Promise<string[]> {
  const regs = [...source.providers.values()];
  const ordered = [...regs.filter((r) => !r.provider.fallback), ...regs.filter((r) => r.provider.fallback)];
  const out: string[] = [];
  for (const reg of ordered) {
    if (providerSupports(reg.provider, capability) && (await availability(reg.provider)).ok) out.push(reg.name);
  }
  return out;
}

function noProviderError(source: WebProviderSource, capability: WebCapability): string {
  const key = capabilityKey(capability);
  const setups = (source.plugins?.() ?? [])
    .filter((r) => (r.manifest?.providesWebProviders.length ?? 0) > 0 && envHint(r) !== '')
    .map((r) => `${envHint(r)} (${r.manifest?.providesWebProviders.join(', ')})`);
  const registered = [...source.providers.keys()];
  const parts = [`no available web provider supports ${WHAT[capability]}.`];
  if (setups.length > 0) parts.push(`Set ${setups.join(', or ')} in the environment or HERMES_HOME/.env,`);
  parts.push(
    `${setups.length > 0 ? 'or name' : 'Name'} a provider in config.yaml with ${key} (or web.backend)${setups.length > 0 ? '.' : ','}`,
  );
  if (setups.length === 0) parts.push('after installing a web provider plugin under HERMES_HOME/plugins/web/<name>/.');
  if (registered.length > 0) parts.push(`Loaded providers: ${registered.join(', ')}.`);
  return parts.join(' ');
}

/** Picks the provider for one call, or explains why there is none. */
export async function routeWebCall(
  capability: WebCapability,
  config: WebRoutingConfig,
  source: WebProviderSource,
): Promise<WebRoute> {
  const own = (capability === 'search' ? config.search_backend : config.extract_backend)?.trim();
  if (own) {
    const route = await useNamed(source, capability, own, capabilityKey(capability), false);
    if (route) return route;
  }
  const shared = config.backend?.trim();
  if (shared) {
    // web.backend is shared by all capabilities: a provider without this one is skipped, not an error
    const route = await useNamed(source, capability, shared, 'web.backend', true);
    if (route) return route;
  }
  const [first] = await supporting(source, capability);
  const reg = first ? source.providers.get(first) : undefined;
  if (reg) return { ok: true, name: reg.name, provider: reg.provider, via: 'auto' };
  return { ok: false, error: noProviderError(source, capability) };
}
