import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ToolRegistry } from '@hermes/agent';
import { ERROR_CODES, HermesError, type Logger, silentLogger } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { HookBus, loadPlugins, ManifestError, PluginRegistries, readManifest, validateManifest } from '../src/index.js';

function put(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'hermes-plugin-codes-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe('plugin.yaml errors', () => {
  it('are HermesErrors coded HERMES_PLUGIN_MANIFEST, naming file and field', () => {
    let caught: unknown;
    try {
      validateManifest({ name: 'x', kind: 'sometimes' }, '/p/x/plugin.yaml');
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ManifestError);
    expect(caught).toBeInstanceOf(HermesError);
    expect((caught as ManifestError).code).toBe(ERROR_CODES.PLUGIN_MANIFEST);
    expect((caught as ManifestError).field).toBe('kind');
    expect((caught as Error).message).toMatch(/^\/p\/x\/plugin\.yaml: kind: expected one of/);
  });

  it('a YAML syntax error names the file and line', async () => {
    const dir = put({ 'plugin.yaml': 'name: x\nversion: [1\n' });
    const err = await readManifest(join(dir, 'plugin.yaml')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HermesError);
    expect((err as HermesError).code).toBe(ERROR_CODES.PLUGIN_MANIFEST);
    expect((err as Error).message).toMatch(/plugin\.yaml:\d+: /);
  });
});

describe('plugin.yaml errors name the line of the field', () => {
  it.each([
    ['name: x\nversion: 1\nrequires_env:\n  - OK_VAR\n  - name: 9BAD\n', /plugin\.yaml:5: requires_env\[1\]\.name: /],
    ['name: x\n\n# a comment\nkind: sometimes\n', /plugin\.yaml:4: kind: expected one of/],
    ['name: x\nprovides_tools: [a, "", c]\n', /plugin\.yaml:2: provides_tools\[1\]: expected a non-empty string/],
    // a missing field has no line: the file and the field
    ['version: 1\n', /plugin\.yaml: name: required/],
  ])('%j', async (text, where) => {
    const dir = put({ 'plugin.yaml': text });
    const err = await readManifest(join(dir, 'plugin.yaml')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ManifestError);
    expect((err as ManifestError).code).toBe(ERROR_CODES.PLUGIN_MANIFEST);
    expect((err as Error).message).toMatch(where);
  });
});

describe('a plugin that fails to load', () => {
  it('is recorded and logged with HERMES_PLUGIN_LOAD, or HERMES_PLUGIN_MANIFEST for its manifest', async () => {
    const manifest = (name: string) => `name: ${name}\nversion: 1.0.0\n`;
    const dir = put({
      'throws/plugin.yaml': manifest('throws'),
      'throws/index.mjs': 'export function register() { throw new TypeError("boom in register"); }',
      'noregister/plugin.yaml': manifest('noregister'),
      'noregister/index.mjs': 'export const nothing = 1;',
      'noentry/plugin.yaml': manifest('noentry'),
      'noentry/README.md': 'no code',
      'noyaml/index.mjs': 'export function register() {}',
      'badyaml/plugin.yaml': 'name: [\n',
      'badyaml/index.mjs': 'export function register() {}',
      'fine/plugin.yaml': manifest('fine'),
      'fine/index.mjs': 'export function register() {}',
    });
    const codes: unknown[] = [];
    const logger = {
      ...silentLogger,
      warn: (obj: unknown) => codes.push((obj as { code?: unknown }).code),
      error: (obj: unknown) => codes.push((obj as { code?: unknown }).code),
      child: () => logger,
    } as unknown as Logger;
    const records = await loadPlugins({
      dirs: [{ dir, source: 'user' }],
      enabled: ['throws', 'noregister', 'noentry', 'noyaml', 'badyaml', 'fine'],
      disabled: [],
      env: {},
      tools: new ToolRegistry(),
      hooks: new HookBus(),
      logger,
      host: { registries: new PluginRegistries() },
    });
    const byKey = (k: string) => records.find((r) => r.key === k);
    expect(byKey('throws')).toMatchObject({
      state: 'failed',
      code: ERROR_CODES.PLUGIN_LOAD,
      error: 'boom in register',
    });
    expect(byKey('noregister')).toMatchObject({ state: 'failed', code: ERROR_CODES.PLUGIN_LOAD });
    expect(byKey('noregister')?.error).toMatch(/noregister\/index\.mjs exports no register\(ctx\) function/);
    expect(byKey('noentry')).toMatchObject({ state: 'failed', code: ERROR_CODES.PLUGIN_LOAD });
    expect(byKey('noentry')?.error).toMatch(/no entry file .* in .*noentry/);
    expect(byKey('noyaml')).toMatchObject({ state: 'failed', code: ERROR_CODES.PLUGIN_LOAD });
    expect(byKey('noyaml')?.error).toMatch(/noyaml\/plugin\.yaml: missing plugin\.yaml/);
    expect(byKey('badyaml')).toMatchObject({ state: 'failed', code: ERROR_CODES.PLUGIN_MANIFEST });
    expect(byKey('badyaml')?.error).toMatch(/badyaml\/plugin\.yaml:\d+: /);
    expect(byKey('fine')).toMatchObject({ state: 'enabled' });
    expect(byKey('fine')?.code).toBeUndefined();
    // every failure's log line carries its code
    expect(codes.filter((c) => c !== undefined).sort()).toEqual(
      [
        ERROR_CODES.PLUGIN_LOAD,
        ERROR_CODES.PLUGIN_LOAD,
        ERROR_CODES.PLUGIN_LOAD,
        ERROR_CODES.PLUGIN_LOAD,
        ERROR_CODES.PLUGIN_MANIFEST,
      ].sort(),
    );
  });
});
