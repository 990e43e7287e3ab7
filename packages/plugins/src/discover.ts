/**
 * Plugin discovery over the sources in precedence order. Within a folder source: a sub-folder
 * with plugin.yaml is a plugin keyed by its folder name; a sub-folder without one whose children
 * have plugin.yaml is a category (`platforms/`, `web/`, ...) and its plugins are keyed
 * `category/name`. In an npm source (a node_modules folder), a package whose package.json has
 * `"hermesPlugin": "<folder>"` (or `true` for the package root) is a plugin keyed by its
 * plugin.yaml name. Everything is alphabetical within a source; a later source's key replaces an
 * earlier one and takes the later place in the order.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';

export type PluginSourceKind = 'bundled' | 'user' | 'project' | 'npm';

/** A folder of plugin folders (or a node_modules folder for `npm`), and which source it is. */
export interface PluginSource {
  dir: string;
  source: PluginSourceKind;
}

export interface DiscoveredPlugin {
  key: string;
  dir: string;
  source: PluginSourceKind;
  category: string | null;
}

const MANIFEST = 'plugin.yaml';
const ENTRY_NAMES = ['index.ts', 'index.mts', 'index.js', 'index.mjs'];

function subdirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory() && !d.name.startsWith('.') && d.name !== 'node_modules')
      .map((d) => d.name)
      .sort();
  } catch {
    return [];
  }
}

function folderPlugins(source: PluginSource): DiscoveredPlugin[] {
  const out: DiscoveredPlugin[] = [];
  for (const name of subdirs(source.dir)) {
    const dir = join(source.dir, name);
    if (existsSync(join(dir, MANIFEST))) {
      out.push({ key: name, dir, source: source.source, category: null });
      continue;
    }
    const children = subdirs(dir).filter((c) => existsSync(join(dir, c, MANIFEST)));
    if (children.length > 0) {
      for (const child of children) {
        out.push({ key: `${name}/${child}`, dir: join(dir, child), source: source.source, category: name });
      }
    } else if (ENTRY_NAMES.some((e) => existsSync(join(dir, e)))) {
      // code without a manifest: reported as failed by the loader, never run
      out.push({ key: name, dir, source: source.source, category: null });
    }
  }
  return out;
}

function npmPlugins(source: PluginSource): DiscoveredPlugin[] {
  const packages: string[] = [];
  for (const name of subdirs(source.dir)) {
    if (name.startsWith('@')) for (const scoped of subdirs(join(source.dir, name))) packages.push(join(name, scoped));
    else packages.push(name);
  }
  const out: DiscoveredPlugin[] = [];
  for (const pkg of packages.sort()) {
    const root = join(source.dir, pkg);
    try {
      const json = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { hermesPlugin?: unknown };
      const field = json.hermesPlugin;
      if (field !== true && typeof field !== 'string') continue;
      const dir = field === true ? root : resolve(root, field);
      const manifest = parse(readFileSync(join(dir, MANIFEST), 'utf8')) as { name?: unknown } | null;
      const key = typeof manifest?.name === 'string' ? manifest.name : pkg.replace(/^@[^/]+\//, '');
      out.push({ key, dir, source: 'npm', category: null });
    } catch {
      // not a plugin package, or unreadable: the loader reports plugin problems, not npm noise
    }
  }
  return out;
}

/** Every plugin of every source, overrides applied, in load order. */
export function discoverPlugins(sources: readonly PluginSource[]): DiscoveredPlugin[] {
  const byKey = new Map<string, DiscoveredPlugin>();
  for (const source of sources) {
    const found = source.source === 'npm' ? npmPlugins(source) : folderPlugins(source);
    for (const plugin of found) {
      byKey.delete(plugin.key);
      byKey.set(plugin.key, plugin);
    }
  }
  return [...byKey.values()];
}
