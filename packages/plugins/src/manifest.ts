/** plugin.yaml: read and validated before any plugin code runs; problems name the file and field. */
import { readFile } from 'node:fs/promises';
import { ERROR_CODES, HermesError, MAX_YAML_NESTING, yamlNestingTooDeep } from '@hermes/protocol';
import { parse } from 'yaml';
import { type OptionalDependency, parseOptionalDependency } from './optional-deps.js';
import { yamlFieldLine } from './yaml-field-line.js';

export const PLUGIN_KINDS = ['standalone', 'backend', 'platform', 'exclusive'] as const;
export type PluginKind = (typeof PLUGIN_KINDS)[number];

/** One `requires_env` entry: the simple form is just the name. */
export interface EnvRequirement {
  name: string;
  description: string | null;
  url: string | null;
  secret: boolean;
}

export interface PluginManifest {
  name: string;
  version: string;
  description: string;
  author: string | null;
  kind: PluginKind;
  providesTools: string[];
  providesHooks: string[];
  providesWebProviders: string[];
  /** names only, for quick checks */
  requiresEnv: string[];
  /** the rich form, for install prompts */
  requiresEnvDetails: EnvRequirement[];
  /** npm packages the plugin needs from HERMES_HOME/node_modules (`optional_dependencies`, optional-deps.ts) */
  optionalDependencies: OptionalDependency[];
}

const KNOWN_FIELDS = [
  'name',
  'version',
  'description',
  'author',
  'kind',
  'provides_tools',
  'provides_hooks',
  'provides_web_providers',
  'requires_env',
  'optional_dependencies',
];

/** A manifest problem (`HERMES_PLUGIN_MANIFEST`): the message names the file (and line) and the field. */
export class ManifestError extends HermesError {
  readonly file: string;
  readonly field: string | null;
  /** what is wrong, without the file and field */
  readonly problem: string;
  constructor(file: string, field: string | null, problem: string) {
    super(ERROR_CODES.PLUGIN_MANIFEST, `${file}: ${field ? `${field}: ` : ''}${problem}`);
    this.name = 'ManifestError';
    this.file = file;
    this.field = field;
    this.problem = problem;
  }
}

function stringList(value: unknown, field: string, file: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new ManifestError(file, field, `expected a list of strings, got ${typeof value}`);
  return value.map((item, i) => {
    if (typeof item !== 'string' || item.trim() === '') {
      throw new ManifestError(file, `${field}[${i}]`, 'expected a non-empty string');
    }
    return item;
  });
}

function envList(value: unknown, file: string): EnvRequirement[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new ManifestError(file, 'requires_env', 'expected a list');
  return value.map((item, i): EnvRequirement => {
    const field = `requires_env[${i}]`;
    if (typeof item === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(item)) {
      return { name: item, description: null, url: null, secret: false };
    }
    if (typeof item === 'object' && item !== null && !Array.isArray(item)) {
      const r = item as Record<string, unknown>;
      if (typeof r.name !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(r.name)) {
        throw new ManifestError(file, `${field}.name`, 'expected an environment variable name');
      }
      for (const k of ['description', 'url'] as const) {
        if (r[k] !== undefined && typeof r[k] !== 'string')
          throw new ManifestError(file, `${field}.${k}`, 'expected a string');
      }
      if (r.secret !== undefined && typeof r.secret !== 'boolean') {
        throw new ManifestError(file, `${field}.secret`, 'expected true or false');
      }
      return {
        name: r.name,
        description: typeof r.description === 'string' ? r.description : null,
        url: typeof r.url === 'string' ? r.url : null,
        secret: r.secret === true,
      };
    }
    throw new ManifestError(file, field, 'expected a variable name or {name, description?, url?, secret?}');
  });
}

function dependencyList(value: unknown, file: string): OptionalDependency[] {
  return stringList(value, 'optional_dependencies', file).map((item, i) => {
    const dep = parseOptionalDependency(item);
    if (dep === null) {
      throw new ManifestError(
        file,
        `optional_dependencies[${i}]`,
        `expected an npm package as name@range, got "${item}"`,
      );
    }
    return dep;
  });
}

/** Validates parsed manifest data; `warn` receives unknown-field notices. */
export function validateManifest(
  data: unknown,
  file: string,
  warn: (message: string) => void = () => {},
): PluginManifest {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new ManifestError(file, null, 'expected a mapping of fields (name, version, ...)');
  }
  const m = data as Record<string, unknown>;
  if (typeof m.name !== 'string' || !/^[a-z0-9][a-z0-9_-]*$/i.test(m.name)) {
    throw new ManifestError(file, 'name', 'required: a plugin name of letters, digits, "-" and "_"');
  }
  if (m.version !== undefined && typeof m.version !== 'string' && typeof m.version !== 'number') {
    throw new ManifestError(file, 'version', 'expected a version string such as 1.0.0');
  }
  for (const k of ['description', 'author'] as const) {
    if (m[k] !== undefined && m[k] !== null && typeof m[k] !== 'string')
      throw new ManifestError(file, k, 'expected a string');
  }
  const kind = m.kind ?? 'standalone';
  if (!PLUGIN_KINDS.includes(kind as PluginKind)) {
    throw new ManifestError(file, 'kind', `expected one of ${PLUGIN_KINDS.join(', ')}, got ${JSON.stringify(kind)}`);
  }
  for (const key of Object.keys(m)) {
    if (!KNOWN_FIELDS.includes(key)) warn(`${file}: unknown field "${key}" (valid fields: ${KNOWN_FIELDS.join(', ')})`);
  }
  const details = envList(m.requires_env, file);
  return {
    name: m.name,
    version: m.version === undefined ? '0.0.0' : String(m.version),
    description: typeof m.description === 'string' ? m.description : '',
    author: typeof m.author === 'string' ? m.author : null,
    kind: kind as PluginKind,
    providesTools: stringList(m.provides_tools, 'provides_tools', file),
    providesHooks: stringList(m.provides_hooks, 'provides_hooks', file),
    providesWebProviders: stringList(m.provides_web_providers, 'provides_web_providers', file),
    requiresEnv: details.map((d) => d.name),
    requiresEnvDetails: details,
    optionalDependencies: dependencyList(m.optional_dependencies, file),
  };
}

/** Reads and validates a manifest file; throws ManifestError naming the file and field. */
export async function readManifest(file: string, warn?: (message: string) => void): Promise<PluginManifest> {
  let data: unknown;
  let deepAt: number | null = null;
  let text = '';
  try {
    text = await readFile(file, 'utf8');
    deepAt = yamlNestingTooDeep(text);
    if (deepAt === null) data = parse(text);
  } catch (err) {
    const line = (err as { linePos?: { line: number }[] }).linePos?.[0]?.line;
    const first = err instanceof Error ? (err.message.split('\n')[0] ?? '') : String(err);
    throw new ManifestError(line ? `${file}:${line}` : file, null, first);
  }
  if (deepAt !== null) {
    throw new ManifestError(`${file}:${deepAt}`, null, `collections nested more than ${MAX_YAML_NESTING} deep`);
  }
  try {
    return validateManifest(data, file, warn);
  } catch (err) {
    // where the field is: `plugin.yaml:4: kind: ...` (a missing field has no line)
    const line = err instanceof ManifestError && err.field ? yamlFieldLine(text, err.field) : null;
    if (line !== null && err instanceof ManifestError)
      throw new ManifestError(`${file}:${line}`, err.field, err.problem);
    throw err;
  }
}
