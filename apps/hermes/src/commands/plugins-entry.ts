/** The public shape of one plugin in `hermes plugins list --json`, derived defensively from a record. */
import type { PluginRecord } from '@hermes/plugins';

export interface PluginListEntry {
  key: string;
  name: string;
  version: string | null;
  kind: string;
  state: string;
  source: string;
  tools: string[];
  hooks: string[];
  commands: string[];
  error: string | null;
}

/** One requires_env entry with the prompt details when the manifest has them. */
export interface EnvNeed {
  name: string;
  description: string | null;
  url: string | null;
  secret: boolean;
}

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function toEnvNeed(item: unknown): EnvNeed | null {
  if (typeof item === 'string') return { name: item, description: null, url: null, secret: false };
  const name = stringOrNull(field(item, 'name'));
  if (name === null) return null;
  return {
    name,
    description: stringOrNull(field(item, 'description')),
    url: stringOrNull(field(item, 'url')),
    secret: field(item, 'secret') === true,
  };
}

/** The manifest's requires_env, rich form (requiresEnvDetails) when present, else names only. */
export function envNeeds(manifest: unknown): EnvNeed[] {
  const details = field(manifest, 'requiresEnvDetails');
  const list = Array.isArray(details) ? details : field(manifest, 'requiresEnv');
  if (!Array.isArray(list)) return [];
  return list.map(toEnvNeed).filter((n): n is EnvNeed => n !== null);
}

/** The list entry for a record: kind defaults to "standalone", name to the key's last segment. */
export function pluginListEntry(record: PluginRecord): PluginListEntry {
  const manifest: unknown = record.manifest;
  return {
    key: record.key,
    name: stringOrNull(field(manifest, 'name')) ?? record.key.split('/').pop() ?? record.key,
    version: stringOrNull(field(manifest, 'version')),
    kind: stringOrNull(field(manifest, 'kind')) ?? 'standalone',
    state: record.state,
    source: record.source,
    // what register() did when it ran; otherwise what the manifest declares (provides_tools/hooks)
    tools: record.state === 'enabled' ? strings(record.tools) : strings(field(manifest, 'providesTools')),
    hooks: record.state === 'enabled' ? strings(record.hooks) : strings(field(manifest, 'providesHooks')),
    commands: strings(field(record, 'commands')),
    error: record.error ?? null,
  };
}
