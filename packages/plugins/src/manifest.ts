/** plugin.yaml: read and checked before any plugin code runs. */
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';

export interface PluginManifest {
  name: string;
  version: string;
  description: string;
  author: string | null;
  providesTools: string[];
  providesHooks: string[];
  requiresEnv: string[];
}

function stringList(value: unknown, field: string, file: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new Error(`${file}: ${field}: expected a list`);
  return value.map((item, i) => {
    if (typeof item === 'string') return item;
    if (typeof item === 'object' && item !== null && typeof (item as { name?: unknown }).name === 'string') {
      return (item as { name: string }).name;
    }
    throw new Error(`${file}: ${field}[${i}]: expected a string or {name: ...}`);
  });
}

/** Reads and validates a manifest; throws an Error naming the file and field. */
export async function readManifest(file: string): Promise<PluginManifest> {
  let data: unknown;
  try {
    data = parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw new Error(`${file}: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new Error(`${file}: expected a mapping`);
  const m = data as Record<string, unknown>;
  if (typeof m.name !== 'string' || !/^[a-z0-9][a-z0-9_-]*$/i.test(m.name)) {
    throw new Error(`${file}: name: expected a plugin name (letters, digits, "-", "_")`);
  }
  return {
    name: m.name,
    version: m.version === undefined ? '0.0.0' : String(m.version),
    description: typeof m.description === 'string' ? m.description : '',
    author: typeof m.author === 'string' ? m.author : null,
    providesTools: stringList(m.provides_tools, 'provides_tools', file),
    providesHooks: stringList(m.provides_hooks, 'provides_hooks', file),
    requiresEnv: stringList(m.requires_env, 'requires_env', file),
  };
}
