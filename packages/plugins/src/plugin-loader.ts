/**
 * Loads opt-in plugins from plugin folders: manifest first, then the entry file (TypeScript via
 * jiti, JavaScript natively, no build step), then register(ctx) exactly once. A plugin whose
 * load or register() fails is marked failed, its registrations are rolled back, and loading
 * goes on. (Issue 3 extends discovery to every documented source.)
 */
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Logger } from '@hermes/protocol';
import type { HookBus } from './hook-bus.js';
import { type PluginManifest, readManifest } from './manifest.js';
import { createPluginContext, type PluginContext, type ToolSink } from './plugin-context.js';

export const ENTRY_FILES = ['index.ts', 'index.mts', 'index.js', 'index.mjs'] as const;

export type PluginState = 'enabled' | 'disabled' | 'not_enabled' | 'failed' | 'env_missing';

export type PluginSourceKind = 'bundled' | 'user' | 'project' | 'npm';

/** A folder of plugin folders, and which source it is. */
export interface PluginSource {
  dir: string;
  source: PluginSourceKind;
}

export interface PluginRecord {
  /** `name`, or `category/name` for bundled sub-category plugins: what enable/disable take */
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
  dirs: PluginSource[];
  enabled: readonly string[];
  disabled: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  tools: ToolSink;
  hooks: HookBus;
  logger: Logger;
}

type RegisterFn = (ctx: PluginContext) => unknown;

function findRegister(mod: unknown): RegisterFn | null {
  if (typeof mod !== 'object' || mod === null) return null;
  const m = mod as { register?: unknown; default?: unknown };
  if (typeof m.register === 'function') return m.register as RegisterFn;
  if (typeof m.default === 'function') return m.default as RegisterFn;
  const d = m.default as { register?: unknown } | undefined;
  if (typeof d === 'object' && d !== null && typeof d.register === 'function') return d.register as RegisterFn;
  return null;
}

async function importEntry(file: string): Promise<unknown> {
  if (file.endsWith('.ts') || file.endsWith('.mts')) {
    const { createJiti } = await import('jiti');
    const jiti = createJiti(import.meta.url, { moduleCache: false, fsCache: false });
    return jiti.import(file);
  }
  return import(pathToFileURL(file).href);
}

/** Discovers and loads the plugins of `dirs` in order (alphabetical within a folder). */
export async function loadPlugins(options: LoadPluginsOptions): Promise<PluginRecord[]> {
  const records = new Map<string, PluginRecord>();
  for (const { dir, source } of options.dirs) {
    if (!existsSync(dir)) continue;
    const names = (await readdir(dir, { withFileTypes: true }))
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
    for (const name of names) {
      // a later source overrides an earlier one with the same key
      records.set(name, {
        key: name,
        dir: join(dir, name),
        source,
        manifest: null,
        state: 'not_enabled',
        tools: [],
        hooks: [],
        commands: [],
        error: null,
      });
    }
  }
  const out: PluginRecord[] = [];
  for (const record of records.values()) {
    out.push(record);
    const log = options.logger.child({ plugin: record.key });
    const manifestFile = join(record.dir, 'plugin.yaml');
    if (!existsSync(manifestFile)) {
      record.state = 'failed';
      record.error = `${manifestFile}: missing plugin.yaml`;
      log.warn(`plugin ${record.key} skipped: ${record.error}`);
      continue;
    }
    try {
      record.manifest = await readManifest(manifestFile);
    } catch (err) {
      record.state = 'failed';
      record.error = err instanceof Error ? err.message : String(err);
      log.warn(`plugin ${record.key} skipped: invalid manifest: ${record.error}`);
      continue;
    }
    if (options.disabled.includes(record.key)) {
      record.state = 'disabled';
      continue;
    }
    if (!options.enabled.includes(record.key)) continue;
    const missing = record.manifest.requiresEnv.filter((k) => !options.env[k]);
    if (missing.length > 0) {
      record.state = 'env_missing';
      record.error = `missing: ${missing.join(', ')}`;
      log.warn(`Plugin ${record.key} disabled (missing: ${missing.join(', ')})`);
      continue;
    }
    const entry = ENTRY_FILES.map((f) => join(record.dir, f)).find((f) => existsSync(f));
    if (!entry) {
      record.state = 'failed';
      record.error = `no entry file (${ENTRY_FILES.join(', ')}) in ${record.dir}`;
      log.warn(`plugin ${record.key} failed: ${record.error}`);
      continue;
    }
    const scoped = createPluginContext({
      key: record.key,
      dir: record.dir,
      logger: log,
      tools: options.tools,
      hooks: options.hooks,
    });
    try {
      const register = findRegister(await importEntry(entry));
      if (!register) throw new Error(`${entry} exports no register(ctx) function`);
      await register(scoped.ctx);
      record.state = 'enabled';
      record.tools = [...scoped.tools];
      record.hooks = [...scoped.hooks];
    } catch (err) {
      scoped.rollback();
      record.state = 'failed';
      record.error = err instanceof Error ? err.message : String(err);
      log.error({ err }, `plugin ${record.key} failed to load: ${record.error}`);
    }
  }
  return out;
}
