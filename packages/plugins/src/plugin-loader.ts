/**
 * Loads plugins: discovery, manifest first (before any plugin code), opt-in, requires_env, then
 * the entry file (TypeScript or JavaScript through jiti, no build step) and register(ctx) exactly
 * once. A plugin whose load or register() fails is marked failed, everything it registered is
 * rolled back, and loading goes on.
 */

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '@hermes/protocol';
import { type DiscoveredPlugin, discoverPlugins, type PluginSource, type PluginSourceKind } from './discover.js';
import type { HookBus } from './hook-bus.js';
import { type PluginManifest, readManifest } from './manifest.js';
import { createModuleImporter, type ModuleImporter } from './module-importer.js';
import { createPluginContext, type PluginContext, type ToolSink } from './plugin-context.js';
import { type PluginFaults, pluginScope } from './plugin-faults.js';
import type { PluginHostServices } from './plugin-host.js';

export const ENTRY_FILES = ['index.ts', 'index.mts', 'index.js', 'index.mjs'] as const;

export type PluginState = 'enabled' | 'disabled' | 'not_enabled' | 'failed' | 'env_missing';

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
  const fail = (message: string) => {
    record.state = 'failed';
    record.error = message;
    log.warn(`plugin ${record.key} failed: ${message}`);
    return record;
  };
  const manifestFile = join(record.dir, 'plugin.yaml');
  if (!existsSync(manifestFile)) return fail(`${manifestFile}: missing plugin.yaml`);
  try {
    record.manifest = await readManifest(manifestFile, (w) => log.warn(w));
  } catch (err) {
    return fail(err instanceof Error ? err.message : String(err));
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
  const entry = ENTRY_FILES.map((f) => join(record.dir, f)).find((f) => existsSync(f));
  if (!entry) return fail(`no entry file (${ENTRY_FILES.join(', ')}) in ${record.dir}`);
  const scoped = createPluginContext({
    key: record.key,
    dir: record.dir,
    logger: log,
    tools: options.tools,
    hooks: options.hooks,
    ...(options.host ? { host: options.host } : {}),
  });
  options.faults?.track(record.key, record.dir);
  try {
    const load = await importer();
    // the plugin's scope: a refused process.exit or a throw from its timers is traced to it
    await pluginScope.run(record.key, async () => {
      const register = findRegister(await load(entry));
      if (!register) throw new Error(`${entry} exports no register(ctx) function`);
      await register(scoped.ctx);
    });
    record.state = 'enabled';
    record.tools = [...scoped.tools];
    record.hooks = [...scoped.hooks];
    record.commands = [...scoped.commands];
  } catch (err) {
    scoped.rollback();
    record.state = 'failed';
    record.error = err instanceof Error ? err.message : String(err);
    log.error({ err }, `plugin ${record.key} failed to load: ${record.error}`);
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
  for (const found of discoverPlugins(options.dirs)) out.push(await loadOne(found, options, lazyImporter));
  return out;
}
