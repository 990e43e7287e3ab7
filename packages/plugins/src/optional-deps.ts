/**
 * A plugin's optional npm dependencies (`optional_dependencies` in plugin.yaml): packages Hermes
 * does not ship that the plugin needs, installed by the operator into HERMES_HOME/node_modules
 * (`hermes plugins install-deps`, only with security.allow_lazy_installs). The loader only looks:
 * a plugin whose package is absent (or of a version outside its range) is `deps_missing` and not
 * loaded; nothing is ever installed at run time. `ctx.importOptional(name)` imports one from there.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type satisfiesFn from 'semver/functions/satisfies.js';
import type validRangeFn from 'semver/ranges/valid.js';

/** semver, loaded the first time a range is checked (some 17 ms: most starts have no optional dependency) */
let semver: { satisfies: typeof satisfiesFn; validRange: typeof validRangeFn } | null = null;
function loadSemver(): { satisfies: typeof satisfiesFn; validRange: typeof validRangeFn } {
  const require = createRequire(import.meta.url);
  semver ??= { satisfies: require('semver/functions/satisfies'), validRange: require('semver/ranges/valid') };
  return semver;
}

/** One `optional_dependencies` entry: `name@range` (a semver range) or `name@<any npm spec>`, or a bare name. */
export interface OptionalDependency {
  /** the package name, `@scope/name` allowed */
  name: string;
  /** what follows the name's `@`: a semver range (checked against the installed version) or an npm spec (`file:…`); `*` when none */
  range: string;
  /** what `npm install` is given */
  spec: string;
}

const NPM_NAME = /^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;

/** Parses `name@range`; null when the name is not an npm package name. */
export function parseOptionalDependency(text: string): OptionalDependency | null {
  const trimmed = text.trim();
  const at = trimmed.indexOf('@', 1); // a scope's leading @ is part of the name
  const name = at === -1 ? trimmed : trimmed.slice(0, at);
  const range = at === -1 ? '' : trimmed.slice(at + 1).trim();
  if (!NPM_NAME.test(name) || name.length > 214) return null;
  return { name, range: range === '' ? '*' : range, spec: range === '' ? name : `${name}@${range}` };
}

/** The installed version of `name` in `modulesDir`, or null when it is not installed. */
export function installedVersion(modulesDir: string, name: string): string | null {
  try {
    const pkg = JSON.parse(readFileSync(join(modulesDir, name, 'package.json'), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return null;
  }
}

/** The dependencies not installed in `modulesDir` (or installed at a version outside a semver range). */
export function missingDependencies(
  deps: readonly OptionalDependency[],
  modulesDir: string | null,
): OptionalDependency[] {
  return deps.filter((d) => {
    if (modulesDir === null) return true;
    const version = installedVersion(modulesDir, d.name);
    if (version === null) return true;
    // a range semver knows is checked; another npm spec (file:, git+…) counts as met once installed
    const { satisfies, validRange } = loadSemver();
    return validRange(d.range) !== null && !satisfies(version, d.range, { includePrerelease: true });
  });
}

/** The one-line reason a plugin is `deps_missing`, with the command that installs them. */
export function depsMissingMessage(key: string, missing: readonly OptionalDependency[]): string {
  const what = missing.map((d) => d.spec).join(', ');
  return `npm package${missing.length === 1 ? '' : 's'} ${what} not installed (hermes plugins install-deps ${key})`;
}

const IMPORT_CONDITIONS = new Set(['node', 'import', 'default', 'module-sync']);

/** The file an ES `import` of the package's root would load, by its `exports` (null: none for import). */
function exportTarget(value: unknown, root = true): string | null {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    for (const v of value) {
      const t = exportTarget(v, false);
      if (t !== null) return t;
    }
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const map = value as Record<string, unknown>;
  if (root && Object.keys(map).some((k) => k.startsWith('.'))) return exportTarget(map['.'], false);
  // the first key, in the package's order, that an import matches (as Node picks)
  for (const [k, v] of Object.entries(map)) if (IMPORT_CONDITIONS.has(k)) return exportTarget(v, false);
  return null;
}

/** Imports `name` from `modulesDir` (HERMES_HOME/node_modules), wherever the importing plugin lives. */
export async function importDependency(modulesDir: string, name: string): Promise<unknown> {
  const dir = join(modulesDir, name);
  const manifest = join(dir, 'package.json');
  if (!existsSync(manifest)) throw new Error(`npm package ${name} is not installed in ${modulesDir}`);
  const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { exports?: unknown };
  const target = pkg.exports === undefined ? null : exportTarget(pkg.exports);
  // no exports: Node's own resolution of the folder (`main` with its extensions, else index.js)
  const file = target !== null ? join(dir, target) : createRequire(manifest).resolve(dir);
  return import(pathToFileURL(file).href);
}
