import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ToolRegistry } from '@hermes/agent';
import { silentLogger } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import {
  HookBus,
  loadPlugins,
  missingDependencies,
  type PluginSource,
  parseOptionalDependency,
  validateManifest,
} from '../src/index.js';
import { importDependency } from '../src/optional-deps.js';

const root = () => mkdtempSync(join(tmpdir(), 'hermes-optdeps-'));
function put(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}
const pkg = (name: string, version: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ name, version, ...extra });

describe('optional_dependencies', () => {
  it('parses name@range, scoped names, bare names and npm specs; refuses what is not a package name', () => {
    expect(parseOptionalDependency('ddgs-sdk@^2.1.0')).toEqual({
      name: 'ddgs-sdk',
      range: '^2.1.0',
      spec: 'ddgs-sdk@^2.1.0',
    });
    expect(parseOptionalDependency('@acme/sdk@~1.2')).toEqual({
      name: '@acme/sdk',
      range: '~1.2',
      spec: '@acme/sdk@~1.2',
    });
    expect(parseOptionalDependency('left-pad')).toEqual({ name: 'left-pad', range: '*', spec: 'left-pad' });
    expect(parseOptionalDependency('dep@file:/tmp/dep.tgz')?.range).toBe('file:/tmp/dep.tgz');
    for (const bad of ['../evil', 'Has Space@1', '@scope', '/abs@1', ''])
      expect(parseOptionalDependency(bad)).toBeNull();
  });

  it('plugin.yaml: a bad entry is a manifest error naming the field', () => {
    expect(
      validateManifest({ name: 'p', optional_dependencies: ['ok@1'] }, 'plugin.yaml').optionalDependencies,
    ).toEqual([{ name: 'ok', range: '1', spec: 'ok@1' }]);
    expect(() => validateManifest({ name: 'p', optional_dependencies: ['ok@1', '../x'] }, 'plugin.yaml')).toThrow(
      'plugin.yaml: optional_dependencies[1]: expected an npm package as name@range, got "../x"',
    );
    expect(validateManifest({ name: 'p' }, 'plugin.yaml').optionalDependencies).toEqual([]);
  });

  it('missing: absent, or installed outside a semver range; an npm spec is met once installed', () => {
    const modules = root();
    put(modules, { 'a/package.json': pkg('a', '1.4.0'), 'b/package.json': pkg('b', '2.0.0') });
    const deps = ['a@^1.2.0', 'b@^1.0.0', 'c@*', 'a@file:/x.tgz'].map((d) => parseOptionalDependency(d)!);
    expect(missingDependencies(deps, modules).map((d) => d.spec)).toEqual(['b@^1.0.0', 'c@*']);
    expect(missingDependencies(deps, null)).toHaveLength(4);
  });

  it('imports by exports (import conditions in the package order), else by main through Node resolution', async () => {
    const modules = root();
    put(modules, {
      'esm-only/package.json': pkg('esm-only', '1.0.0', {
        type: 'module',
        exports: { '.': { types: './x.d.ts', import: './esm.js', require: './cjs.cjs' } },
      }),
      'esm-only/esm.js': 'export const kind = "esm";\n',
      'esm-only/cjs.cjs': 'exports.kind = "cjs";\n',
      'old-cjs/package.json': pkg('old-cjs', '1.0.0', { main: 'lib/main' }),
      'old-cjs/lib/main.js': 'module.exports = { kind: "main" };\n',
    });
    expect(((await importDependency(modules, 'esm-only')) as { kind: string }).kind).toBe('esm');
    expect(((await importDependency(modules, 'old-cjs')) as { default: { kind: string } }).default.kind).toBe('main');
    await expect(importDependency(modules, 'absent')).rejects.toThrow(
      `npm package absent is not installed in ${modules}`,
    );
  });

  it('the loader: deps_missing (never imported) until the package is in the npm source folder; ctx.importOptional then loads it', async () => {
    const user = root();
    const modules = root();
    put(user, {
      'lazy/plugin.yaml': 'name: lazy\noptional_dependencies: [shouter@^1.0.0]\n',
      'lazy/index.mjs': `export async function register(ctx) {
  const { shout } = await ctx.importOptional('shouter');
  await ctx.importOptional('undeclared').catch((e) => { globalThis.__undeclared = e.message; });
  ctx.registerTool({ name: 'shout', toolset: 't', schema: { name: 'shout', description: 'd', parameters: { type: 'object', properties: {} } }, handler: () => shout('hi') });
}`,
    });
    const sources: PluginSource[] = [
      { dir: user, source: 'user' },
      { dir: modules, source: 'npm' },
    ];
    const load = async () => {
      const tools = new ToolRegistry();
      const records = await loadPlugins({
        dirs: sources,
        enabled: ['lazy'],
        disabled: [],
        env: {},
        tools,
        hooks: new HookBus(),
        logger: silentLogger,
      });
      return { record: records.find((r) => r.key === 'lazy'), tools };
    };
    const before = await load();
    expect(before.record).toMatchObject({
      state: 'deps_missing',
      error: 'npm package shouter@^1.0.0 not installed (hermes plugins install-deps lazy)',
    });
    put(modules, { 'shouter/package.json': pkg('shouter', '0.9.0', { type: 'module', exports: './i.js' }) });
    put(modules, { 'shouter/i.js': 'export const shout = (t) => t.toUpperCase();\n' });
    expect((await load()).record?.state).toBe('deps_missing'); // 0.9.0 is outside ^1.0.0
    put(modules, { 'shouter/package.json': pkg('shouter', '1.1.0', { type: 'module', exports: './i.js' }) });
    const after = await load();
    expect(after.record?.state).toBe('enabled');
    expect(await after.tools.get('shout')?.handler({}, {} as never)).toBe('HI');
    expect((globalThis as { __undeclared?: string }).__undeclared).toBe(
      'plugin lazy: undeclared is not in the optional_dependencies of its plugin.yaml',
    );
  });
});
