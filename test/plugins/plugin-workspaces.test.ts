// Every bundled plugin is a proper workspace: its folder (or the category folder holding it) is an
// npm workspace whose package.json declares each package its code imports, the lock file agrees with
// that package.json (so `npm ci` works), and its tsconfig.json is referenced from the root one, so
// `tsc -b` type-checks it.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PLUGINS = join(ROOT, 'plugins');

interface PackageJson {
  workspaces?: string[];
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

/** Every file below `dir`, node_modules and dist left out. */
function filesBelow(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name === 'node_modules' || name === 'dist') return [];
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesBelow(path) : [path];
  });
}

/** The root's workspace folders (relative paths), its `dir/*` globs expanded. */
function workspaceFolders(): string[] {
  return (readJson<PackageJson>(join(ROOT, 'package.json')).workspaces ?? []).flatMap((pattern) => {
    if (!pattern.endsWith('/*')) return [pattern];
    const parent = pattern.slice(0, -2);
    return readdirSync(join(ROOT, parent))
      .filter((name) => existsSync(join(ROOT, parent, name, 'package.json')))
      .map((name) => `${parent}/${name}`);
  });
}

/** The packages a TypeScript file imports by name (`node:` built-ins and relative paths left out). */
function importedPackages(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const specifier = /(?:\bfrom|^import|\bimport\()\s*['"]([\w@][^'"\s]*)['"]/gm;
  const names = [...source.matchAll(specifier)].map((m) => m[1] ?? '');
  return names.filter((s) => !s.startsWith('node:')).map(packageName);
}

/** `grammy/types` -> `grammy`, `@slack/bolt/x` -> `@slack/bolt`. */
function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return parts.slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
}

const workspaces = workspaceFolders();
const pluginWorkspaces = workspaces.filter((w) => w.startsWith('plugins/'));
const manifests = filesBelow(PLUGINS).filter((f) => f.endsWith('plugin.yaml'));

describe('bundled plugins are workspaces', () => {
  it('every plugin folder lies in a workspace', () => {
    expect(manifests.length).toBeGreaterThan(10);
    for (const manifest of manifests) {
      const folder = relative(ROOT, dirname(manifest));
      const owner = pluginWorkspaces.find((w) => folder === w || folder.startsWith(`${w}/`));
      expect(owner, folder).toBeDefined();
    }
  });

  it("each one's tsconfig.json is referenced from the root tsconfig.json", () => {
    const references = new Set(
      readJson<{ references: { path: string }[] }>(join(ROOT, 'tsconfig.json')).references.map((r) => r.path),
    );
    for (const workspace of pluginWorkspaces) {
      expect(existsSync(join(ROOT, workspace, 'tsconfig.json')), workspace).toBe(true);
      expect(references.has(workspace), workspace).toBe(true);
    }
  });

  it('each package.json declares every package its code imports (tests: dependencies or devDependencies)', () => {
    for (const workspace of pluginWorkspaces) {
      const pkg = readJson<PackageJson>(join(ROOT, workspace, 'package.json'));
      const runtime = new Set(Object.keys(pkg.dependencies ?? {}));
      const all = new Set([...runtime, ...Object.keys(pkg.devDependencies ?? {})]);
      const sources = filesBelow(join(ROOT, workspace)).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
      for (const file of sources) {
        const isTest = relative(join(ROOT, workspace), file).split('/').includes('test');
        for (const name of importedPackages(file)) {
          expect((isTest ? all : runtime).has(name), `${relative(ROOT, file)} imports ${name}`).toBe(true);
        }
      }
    }
  });

  it('plugin code depends on the plugin SDK and protocol, never on the packages that host it', () => {
    const hosts = ['@hermes/agent', '@hermes/config', '@hermes/gateway', '@hermes/logging', '@hermes/store', 'hermes'];
    for (const workspace of pluginWorkspaces) {
      const runtime = Object.keys(readJson<PackageJson>(join(ROOT, workspace, 'package.json')).dependencies ?? {});
      expect(
        runtime.filter((name) => hosts.includes(name)),
        workspace,
      ).toEqual([]);
    }
  });

  it('package-lock.json agrees with each package.json, so npm ci installs them', () => {
    const lock = readJson<{ packages: Record<string, PackageJson & { link?: boolean }> }>(
      join(ROOT, 'package-lock.json'),
    ).packages;
    for (const workspace of pluginWorkspaces) {
      const pkg = readJson<PackageJson>(join(ROOT, workspace, 'package.json'));
      const locked = lock[workspace];
      expect(locked, workspace).toBeDefined();
      expect(locked?.dependencies ?? {}, workspace).toEqual(pkg.dependencies ?? {});
      expect(locked?.devDependencies ?? {}, workspace).toEqual(pkg.devDependencies ?? {});
    }
  });
});
