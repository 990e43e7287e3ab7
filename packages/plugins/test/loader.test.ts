import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ToolRegistry } from '@hermes/agent';
import { silentLogger } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { HookBus, type LoadPluginsOptions, loadPlugins, PluginRegistries, type PluginSource } from '../src/index.js';

const SDK = fileURLToPath(new URL('../../plugin-sdk/src/index.ts', import.meta.url));

function root(): string {
  return mkdtempSync(join(tmpdir(), 'hermes-plugins-'));
}

/** Writes files (path -> text) under dir. */
function put(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

const manifest = (name: string, extra = '') => `name: ${name}\nversion: 1.2.3\ndescription: test\n${extra}`;
const toolPlugin = (tool: string) => `
export function register(ctx) {
  ctx.registerTool({
    name: '${tool}', toolset: 't',
    schema: { name: '${tool}', description: 'd', parameters: { type: 'object', properties: {} } },
    handler: () => ({ from: '${tool}', dir: ctx.dir }),
  });
}`;

async function load(sources: PluginSource[], overrides: Partial<LoadPluginsOptions> = {}) {
  const tools = new ToolRegistry();
  const hooks = new HookBus();
  const registries = new PluginRegistries();
  const records = await loadPlugins({
    dirs: sources,
    enabled: [],
    disabled: [],
    env: {},
    tools,
    hooks,
    logger: silentLogger,
    host: { registries },
    aliases: { '@hermes/plugin-sdk': SDK },
    ...overrides,
  });
  return { records, tools, hooks, registries, byKey: (k: string) => records.find((r) => r.key === k) };
}

describe('discovery', () => {
  it('orders alphabetically within a source, keys categories, and lets a later source override', async () => {
    const bundled = root();
    const user = root();
    put(bundled, {
      'zeta/plugin.yaml': manifest('zeta'),
      'zeta/index.mjs': toolPlugin('zeta_tool'),
      'alpha/plugin.yaml': manifest('alpha'),
      'alpha/index.mjs': toolPlugin('bundled_alpha'),
      'platforms/chatx/plugin.yaml': manifest('chatx', 'kind: platform\n'),
      'platforms/chatx/index.mjs': `export function register(ctx) {
  const capabilities = { maxMessageLength: 100, formatting: 'plain', editing: false, typing: false, threads: false };
  const factory = { name: 'chatx', hasCredentials: () => true, create: () => { throw new Error('not here'); } };
  ctx.registerPlatform({ name: 'chatx', capabilities, factory });
}`,
      'README.md/keep': '',
    });
    put(user, { 'alpha/plugin.yaml': manifest('alpha'), 'alpha/index.ts': toolPlugin('user_alpha') });
    const { records, tools, registries } = await load(
      [
        { dir: bundled, source: 'bundled' },
        { dir: user, source: 'user' },
      ],
      { enabled: ['alpha', 'zeta'] },
    );
    expect(records.map((r) => `${r.source}:${r.key}`)).toEqual([
      'bundled:platforms/chatx',
      'bundled:zeta',
      'user:alpha',
    ]);
    expect(tools.get('user_alpha')).toBeDefined();
    expect(tools.get('bundled_alpha')).toBeUndefined();
    // bundled platform plugins load without opt-in
    expect(records[0]?.state).toBe('enabled');
    expect(registries.platforms.get('chatx')?.plugin).toBe('platforms/chatx');
  });

  it('a bundled plugin runs from its build (<package>/dist) when there is one; a user plugin always from its source', async () => {
    const bundled = root();
    const user = root();
    const files = (where: string) => ({
      // a workspace holding two plugins, one with its build, as plugins/model-providers is
      [`${where}/package.json`]: '{"type":"module"}',
      [`${where}/built/plugin.yaml`]: manifest('built'),
      [`${where}/built/index.ts`]: toolPlugin('built_from_source'),
      [`${where}/dist/built/index.js`]: toolPlugin('built_from_dist'),
      [`${where}/unbuilt/plugin.yaml`]: manifest('unbuilt'),
      [`${where}/unbuilt/index.ts`]: toolPlugin('unbuilt_from_source'),
    });
    put(bundled, files('pack'));
    put(user, files('pack'));
    const enabled = ['pack/built', 'pack/unbuilt'];
    const fromBundled = await load([{ dir: bundled, source: 'bundled' }], { enabled });
    expect(
      fromBundled.tools
        .list()
        .map((t) => t.name)
        .sort(),
    ).toEqual(['built_from_dist', 'unbuilt_from_source']);
    const fromUser = await load([{ dir: user, source: 'user' }], { enabled });
    expect(
      fromUser.tools
        .list()
        .map((t) => t.name)
        .sort(),
    ).toEqual(['built_from_source', 'unbuilt_from_source']);
  });

  it('a user platform plugin still needs opt-in; disabled wins over enabled', async () => {
    const user = root();
    put(user, {
      'platforms/mine/plugin.yaml': manifest('mine', 'kind: platform\n'),
      'platforms/mine/index.mjs': `export function register(ctx) { ctx.registerPlatform({ name: 'mine' }); }`,
      'both/plugin.yaml': manifest('both'),
      'both/index.mjs': toolPlugin('both_tool'),
      'off/plugin.yaml': manifest('off'),
      'off/index.mjs': toolPlugin('off_tool'),
    });
    const { byKey, tools } = await load([{ dir: user, source: 'user' }], { enabled: ['both'], disabled: ['both'] });
    expect(byKey('platforms/mine')?.state).toBe('not_enabled');
    expect(byKey('both')?.state).toBe('disabled');
    expect(byKey('off')?.state).toBe('not_enabled');
    expect(tools.list()).toEqual([]);
  });

  it('finds npm packages that declare "hermesPlugin", keyed by their manifest name', async () => {
    const modules = root();
    put(modules, {
      '@acme/hermes-weather/package.json': JSON.stringify({ name: '@acme/hermes-weather', hermesPlugin: './plugin' }),
      '@acme/hermes-weather/plugin/plugin.yaml': manifest('weather'),
      '@acme/hermes-weather/plugin/index.mjs': toolPlugin('weather_now'),
      'left-pad/package.json': JSON.stringify({ name: 'left-pad' }),
    });
    const { records, tools } = await load([{ dir: modules, source: 'npm' }], { enabled: ['weather'] });
    expect(records.map((r) => [r.key, r.source, r.state])).toEqual([['weather', 'npm', 'enabled']]);
    expect(tools.get('weather_now')).toBeDefined();
  });
});

describe('manifests and gating', () => {
  it('reports an invalid manifest with file and field, and never runs the code', async () => {
    const user = root();
    const marker = join(user, 'ran');
    put(user, {
      'bad/plugin.yaml': manifest('bad', 'kind: sometimes\n'),
      'bad/index.mjs': `import { writeFileSync } from 'node:fs'; writeFileSync(${JSON.stringify(marker)}, 'x'); export function register() {}`,
      'rich/plugin.yaml': manifest('rich', 'requires_env:\n  - name: 9BAD\n'),
      'rich/index.mjs': toolPlugin('rich_tool'),
      'noname/plugin.yaml': 'version: 1\n',
      'noname/index.mjs': toolPlugin('noname_tool'),
    });
    const { byKey } = await load([{ dir: user, source: 'user' }], { enabled: ['bad', 'rich', 'noname'] });
    expect(byKey('bad')).toMatchObject({ state: 'failed' });
    expect(byKey('bad')?.error).toMatch(
      /bad\/plugin\.yaml:4: kind: expected one of standalone, backend, platform, exclusive/,
    );
    expect(byKey('rich')?.error).toMatch(
      /rich\/plugin\.yaml:5: requires_env\[0\]\.name: expected an environment variable name/,
    );
    expect(byKey('noname')?.error).toMatch(/noname\/plugin\.yaml: name: required/);
    expect(existsSync(marker)).toBe(false);
  });

  it('does not load a plugin whose requires_env is missing (simple and rich forms)', async () => {
    const user = root();
    put(user, {
      'weather/plugin.yaml': manifest(
        'weather',
        'requires_env:\n  - WEATHER_API_KEY\n  - name: WEATHER_REGION\n    description: region\n    url: https://example.invalid\n    secret: false\n',
      ),
      'weather/index.mjs': toolPlugin('forecast'),
    });
    const missing = await load([{ dir: user, source: 'user' }], {
      enabled: ['weather'],
      env: { WEATHER_API_KEY: 'k' },
    });
    expect(missing.byKey('weather')).toMatchObject({ state: 'env_missing', error: 'missing: WEATHER_REGION' });
    expect(missing.tools.get('forecast')).toBeUndefined();
    const ok = await load([{ dir: user, source: 'user' }], {
      enabled: ['weather'],
      env: { WEATHER_API_KEY: 'k', WEATHER_REGION: 'eu' },
    });
    expect(ok.byKey('weather')?.state).toBe('enabled');
    expect(ok.byKey('weather')?.manifest?.requiresEnvDetails[1]).toEqual({
      name: 'WEATHER_REGION',
      description: 'region',
      url: 'https://example.invalid',
      secret: false,
    });
  });
});

describe('loading and isolation', () => {
  it('loads TypeScript with relative imports, data files and the SDK; register runs exactly once', async () => {
    const user = root();
    put(user, {
      'ts/plugin.yaml': manifest('ts'),
      'ts/index.ts': `
import { definePlugin } from '@hermes/plugin-sdk';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { double } from './lib/math.ts';
(globalThis as Record<string, number>).__registerCalls = 0;
export default definePlugin((ctx) => {
  (globalThis as Record<string, number>).__registerCalls++;
  const data = JSON.parse(readFileSync(join(ctx.dir, 'data', 'n.json'), 'utf8')) as { n: number };
  ctx.registerTool({
    name: 'double_n', toolset: 'ts',
    schema: { name: 'double_n', description: 'd', parameters: { type: 'object', properties: {} } },
    handler: async () => ({ value: double(data.n) }),
  });
});`,
      'ts/lib/math.ts': 'export const double = (x: number): number => x * 2;\n',
      'ts/data/n.json': '{"n": 21}',
    });
    const { byKey, tools } = await load([{ dir: user, source: 'user' }], { enabled: ['ts'] });
    expect(byKey('ts')?.error).toBeNull();
    expect(await tools.get('double_n')?.handler({}, {} as never)).toEqual({ value: 42 });
    expect((globalThis as Record<string, unknown>).__registerCalls).toBe(1);
  });

  it('rolls back everything a throwing register() made, marks it failed, and goes on', async () => {
    const user = root();
    put(user, {
      'a-broken/plugin.yaml': manifest('a-broken'),
      'a-broken/index.mjs': `export function register(ctx) {
        ${toolPlugin('half_tool').replace('export function register(ctx) {', '').replace(/}\s*$/, '')}
        ctx.registerHook('pre_llm_call', () => 'ctx');
        ctx.registerCommand({ name: 'half', handler: () => 'x' });
        throw new Error('register exploded');
      }`,
      'b-fine/plugin.yaml': manifest('b-fine'),
      'b-fine/index.mjs': toolPlugin('fine_tool'),
    });
    const { byKey, tools, hooks, registries } = await load([{ dir: user, source: 'user' }], {
      enabled: ['a-broken', 'b-fine'],
    });
    expect(byKey('a-broken')).toMatchObject({ state: 'failed', error: 'register exploded', tools: [], hooks: [] });
    expect(tools.get('half_tool')).toBeUndefined();
    expect(hooks.count()).toBe(0);
    expect(registries.commands.size).toBe(0);
    expect(byKey('b-fine')?.state).toBe('enabled');
  });

  it('rejects an unknown hook name with a did-you-mean', async () => {
    const user = root();
    put(user, {
      'typo/plugin.yaml': manifest('typo'),
      'typo/index.mjs': `export function register(ctx) { ctx.registerHook('pre_tool_cal', () => {}); }`,
    });
    const { byKey } = await load([{ dir: user, source: 'user' }], { enabled: ['typo'] });
    expect(byKey('typo')?.error).toBe('plugin typo: unknown hook "pre_tool_cal" (did you mean "pre_tool_call"?)');
  });
});
