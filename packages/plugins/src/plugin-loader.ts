/**
 * Loads plugins: discovery, manifest first (before any plugin code), opt-in, requires_env, then
 * the entry file (TypeScript or JavaScript through jiti, no build step; a bundled plugin from its
 * build, compiled-entry.ts) and register(ctx) exactly
 * once. A plugin whose load or register() fails is marked failed (its error a HermesError:
 * `HERMES_PLUGIN_MANIFEST` for plugin.yaml, `HERMES_PLUGIN_LOAD` for the rest), everything it
 * registered is rolled back, and loading goes on.
 */

import { existsSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ERROR_CODES, type ErrorCode, HermesError, type Logger } from '@hermes/protocol';
import { compiledEntry } from './compiled-entry.js';
import { type DiscoveredPlugin, discoverPlugins, type PluginSource, type PluginSourceKind } from './discover.js';
import type { HookBus } from './hook-bus.js';
import { type PluginManifest, readManifest } from './manifest.js';
import { createModuleImporter, type ModuleImporter } from './module-importer.js';
import { depsMissingMessage, missingDependencies } from './optional-deps.js';
import { createPluginContext, type PluginContext, type ToolSink } from './plugin-context.js';
import { type PluginFaults, pluginScope } from './plugin-faults.js';
import type { PluginHostServices } from './plugin-host.js';

export const ENTRY_FILES = ['index.ts', 'index.mts', 'index.js', 'index.mjs'] as const;

export type PluginState =
  | 'enabled'
  | 'disabled'
  | 'not_enabled'
  | 'failed'
  | 'env_missing'
  | 'deps_missing'
  /** enabled, but its files are not approved by the operator (the CLI's trust check): not loaded */
  | 'not_approved';

export interface PluginRecord {
  /** `name`, or `category/name` for sub-category plugins: what enable/disable take */
  key: string;
  dir: string;
  source: PluginSourceKind;
  manifest: PluginManifest | null;
  state: PluginState;
  tools: string[];
  hooks: string[];
  commands: string[];
  error: string | null;
  /** when the plugin failed: its error's code (`HERMES_PLUGIN_MANIFEST` or `HERMES_PLUGIN_LOAD`) */
  code?: ErrorCode;
}

export interface LoadPluginsOptions {
  /** sources in precedence order: bundled, user, project, npm */
  dirs: readonly PluginSource[];
  enabled: readonly string[];
  disabled: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  tools: ToolSink;
  hooks: HookBus;
  logger: Logger;
  host?: PluginHostServices;
  /** module aliases for plugin code, e.g. `@hermes/plugin-sdk` */
  aliases?: Record<string, string>;
  /** traces uncaught errors to plugins (their folders are tracked before their code runs) */
  faults?: PluginFaults;
  /** only the discovered plugins whose key passes are looked at (a reload loads the newly enabled ones) */
  only?: (key: string) => boolean;
  /** given: each plugin that loads leaves here the function that undoes all it registered (a reload unloads with it) */
  unloaders?: Map<string, () => void>;
}

type RegisterFn = (ctx: PluginContext) => unknown;

function findRegister(mod: unknown): RegisterFn | null {
  if (typeof mod === 'function') return mod as RegisterFn;
  if (typeof mod !== 'object' || mod === null) return null;
  const m = mod as { register?: unknown; default?: unknown };
  if (typeof m.register === 'function') return m.register as RegisterFn;
  if (typeof m.default === 'function') return m.default as RegisterFn;
  const d = m.default as { register?: unknown } | undefined;
  if (typeof d === 'object' && d !== null && typeof d.register === 'function') return d.register as RegisterFn;
  return null;
}

/** A plugin that cannot load: `HERMES_PLUGIN_LOAD`, the message naming the file or folder and the problem. */
export function pluginLoadError(message: string, cause?: unknown): HermesError {
  return new HermesError(ERROR_CODES.PLUGIN_LOAD, message, cause === undefined ? {} : { cause });
}

/** What a plugin's load threw, as a HermesError: a manifest error keeps its code, anything else becomes PLUGIN_LOAD (the original as its cause). */
function asLoadError(err: unknown): HermesError {
  if (
    err instanceof HermesError &&
    (err.code === ERROR_CODES.PLUGIN_MANIFEST || err.code === ERROR_CODES.PLUGIN_LOAD)
  ) {
    return err;
  }
  return pluginLoadError(err instanceof Error ? err.message : String(err), err);
}

type Importer = ModuleImporter;
const createImporter = (aliases: Record<string, string> | undefined) => createModuleImporter(aliases);

/** Whether a plugin runs without being listed in plugins.enabled: bundled platform and backend plugins. */
export function loadsWithoutOptIn(source: PluginSourceKind, manifest: PluginManifest): boolean {
  return source === 'bundled' && (manifest.kind === 'platform' || manifest.kind === 'backend');
}

async function loadOne(
  found: DiscoveredPlugin,
  options: LoadPluginsOptions,
  importer: () => Promise<Importer>,
): Promise<PluginRecord> {
  const record: PluginRecord = {
    key: found.key,
    dir: found.dir,
    source: found.source,
    manifest: null,
    state: 'not_enabled',
    tools: [],
    hooks: [],
    commands: [],
    error: null,
  };
  const log = options.logger.child({ plugin: record.key });
  const failed = (error: HermesError) => {
    record.state = 'failed';
    record.error = error.message;
    record.code = error.code;
  };
  const fail = (error: HermesError) => {
    failed(error);
    log.warn({ code: error.code }, `plugin ${record.key} failed: ${error.message}`);
    return record;
  };
  const manifestFile = join(record.dir, 'plugin.yaml');
  if (!existsSync(manifestFile)) return fail(pluginLoadError(`${manifestFile}: missing plugin.yaml`));
  try {
    record.manifest = await readManifest(manifestFile, (w) => log.warn(w));
  } catch (err) {
    return fail(asLoadError(err));
  }
  if (options.disabled.includes(record.key)) {
    record.state = 'disabled';
    return record;
  }
  if (!options.enabled.includes(record.key) && !loadsWithoutOptIn(record.source, record.manifest)) return record;
  const missing = record.manifest.requiresEnv.filter((k) => !options.env[k]);
  if (missing.length > 0) {
    record.state = 'env_missing';
    record.error = `missing: ${missing.join(', ')}`;
    // a bundled platform without its token is simply not configured: no warning, and its SDK is never imported
    const say = loadsWithoutOptIn(record.source, record.manifest) ? log.debug.bind(log) : log.warn.bind(log);
    say(`Plugin ${record.manifest.name} disabled (missing: ${missing.join(', ')})`);
    return record;
  }
  // optional npm packages come from HERMES_HOME/node_modules (the npm source's folder); never installed here
  const modulesDir = options.dirs.find((d) => d.source === 'npm')?.dir ?? null;
  const lacking = missingDependencies(record.manifest.optionalDependencies, modulesDir);
  if (lacking.length > 0) {
    record.state = 'deps_missing';
    record.error = depsMissingMessage(record.key, lacking);
    log.warn(`Plugin ${record.manifest.name} disabled (${record.error})`);
    return record;
  }
  const entry = ENTRY_FILES.map((f) => join(record.dir, f)).find((f) => existsSync(f));
  if (!entry) return fail(pluginLoadError(`no entry file (${ENTRY_FILES.join(', ')}) in ${record.dir}`));
  const scoped = createPluginContext({
    key: record.key,
    dir: record.dir,
    logger: log,
    tools: options.tools,
    hooks: options.hooks,
    ...(options.host ? { host: options.host } : {}),
    optional: { modulesDir, names: record.manifest.optionalDependencies.map((d) => d.name) },
    scoped: record.source !== 'bundled',
  });
  options.faults?.track(record.key, record.dir);
  try {
    // a bundled plugin runs from its build when there is one (compiled-entry.ts), else through jiti
    const compiled = record.source === 'bundled' ? compiledEntry(entry) : null;
    // a bundled plugin runs outside the fault scope (below): its build's folder traces its errors too
    if (compiled && !compiled.startsWith(record.dir + sep)) options.faults?.track(record.key, dirname(compiled));
    const load: Importer = compiled ? (file) => import(pathToFileURL(file).href) : await importer();
    const registerIt = async () => {
      const register = findRegister(await load(compiled ?? entry));
      if (!register) throw pluginLoadError(`${entry} exports no register(ctx) function`);
      await register(scoped.ctx);
    };
    // a third-party plugin's scope: a refused process.exit or a throw from its timers is traced to it.
    // Bundled plugins are ours and run without it: the scope's AsyncLocalStorage turns on Node's
    // promise hooks for the whole process (2-3 % CPU per message), so only a third-party plugin pays it
    if (record.source === 'bundled') await registerIt();
    else await pluginScope.run(record.key, registerIt);
    record.state = 'enabled';
    options.unloaders?.set(record.key, () => scoped.rollback());
    record.tools = [...scoped.tools];
    record.hooks = [...scoped.hooks];
    record.commands = [...scoped.commands];
  } catch (err) {
    scoped.rollback();
    const error = asLoadError(err);
    failed(error);
    log.error({ err, code: error.code }, `plugin ${record.key} failed to load: ${error.message}`);
  }
  return record;
}

/** Discovers and loads the plugins of every source; one record per plugin, in load order. */
export async function loadPlugins(options: LoadPluginsOptions): Promise<PluginRecord[]> {
  let importer: Promise<Importer> | null = null;
  const lazyImporter = () => {
    importer ??= createImporter(options.aliases);
    return importer;
  };
  const out: PluginRecord[] = [];
  for (const found of discoverPlugins(options.dirs)) {
    if (options.only && !options.only(found.key)) continue;
    out.push(await loadOne(found, options, lazyImporter));
  }
  return out;
}
