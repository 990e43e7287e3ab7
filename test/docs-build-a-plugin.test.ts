// docs/build-a-plugin.md is runnable: its plugin files, extracted as written, load and answer its example prompts.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ToolRegistry } from '@hermes/agent';
import { HookBus, loadPlugins, type PluginRecord } from '@hermes/plugins';
import type { Logger } from '@hermes/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const DOC = readFileSync(fileURLToPath(new URL('../docs/build-a-plugin.md', import.meta.url)), 'utf8');

interface FileBlock {
  path: string;
  body: string;
}

/**
 * The plugin files of a Markdown text: fenced blocks whose first line is `// file: x` or `# file: x`
 * (the comment stays in the file), or whose info string carries `file=x` (for JSON, which has no comments).
 */
function fileBlocks(markdown: string): FileBlock[] {
  const out: FileBlock[] = [];
  const fence = /^```([^\n]*)\n([\s\S]*?)^```[ \t]*$/gm;
  for (let m = fence.exec(markdown); m !== null; m = fence.exec(markdown)) {
    const info = m[1] ?? '';
    const body = m[2] ?? '';
    const path = /(?:^|\s)file=(\S+)/.exec(info)?.[1] ?? /^(?:\/\/|#) file: (\S+)\n/.exec(body)?.[1];
    if (path) out.push({ path, body });
  }
  return out;
}

const blocks = fileBlocks(DOC);
let home = '';
let record: PluginRecord | undefined;
const tools = new ToolRegistry();
const hooks = new HookBus();
const logged: string[] = [];
const logger: Logger = {
  trace: () => {},
  debug: (obj: unknown, msg?: string) => logged.push(typeof obj === 'string' ? obj : (msg ?? '')),
  info: () => {},
  warn: () => {},
  error: () => {},
  fatal: () => {},
  child: () => logger,
};

async function call(tool: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const handler = tools.get(tool)?.handler;
  if (!handler) throw new Error(`${tool} is not registered`);
  const out = await handler(args, {} as never);
  expect(typeof out).toBe('string');
  return JSON.parse(out as string) as Record<string, unknown>;
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'hermes-build-a-plugin-'));
  const dir = join(home, 'plugins', 'calculator');
  for (const block of blocks) {
    const file = join(dir, block.path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, block.body);
  }
  const records = await loadPlugins({
    dirs: [{ dir: join(home, 'plugins'), source: 'user' }],
    enabled: ['calculator'],
    disabled: [],
    env: {},
    tools,
    hooks,
    logger,
  });
  record = records.find((r) => r.key === 'calculator');
});

afterAll(() => {
  if (home) rmSync(home, { recursive: true, force: true });
});

describe('docs/build-a-plugin.md', () => {
  it('contains every file of the plugin, once each, in both block conventions', () => {
    const paths = blocks.map((b) => b.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths).toEqual(
      expect.arrayContaining([
        'plugin.yaml',
        'schemas.ts',
        'expression.ts',
        'data/units.json',
        'units.ts',
        'tools.ts',
        'index.ts',
        'skills/calculator/SKILL.md',
      ]),
    );
    expect(blocks.find((b) => b.path === 'index.ts')?.body).toMatch(/^\/\/ file: index\.ts\n/);
    expect(blocks.find((b) => b.path === 'plugin.yaml')?.body).toMatch(/^# file: plugin\.yaml\n/);
    expect(() => JSON.parse(blocks.find((b) => b.path === 'data/units.json')?.body ?? '')).not.toThrow();
  });

  it('points to the bundled copy and never evaluates code', () => {
    expect(DOC).toContain('plugins/calculator/');
    for (const block of blocks) {
      expect(block.body, block.path).not.toMatch(/\beval\s*\(|\bnew Function\b|node:vm/);
    }
  });

  it('loads through the real loader as a user plugin with the tools and hook its manifest declares', () => {
    expect(record?.error).toBeNull();
    expect(record?.state).toBe('enabled');
    expect(record?.source).toBe('user');
    expect(record?.tools).toEqual(['calculate', 'unit_convert']);
    expect(record?.tools).toEqual(record?.manifest?.providesTools);
    expect(record?.hooks).toEqual(record?.manifest?.providesHooks);
    expect(hooks.count('post_tool_call')).toBe(1);
  });

  it("answers the guide's calculate prompts", async () => {
    expect(await call('calculate', { expression: '2**16' })).toEqual({ expression: '2**16', result: 65536 });
    expect(await call('calculate', { expression: 'sqrt(144)' })).toMatchObject({ result: 12 });
    expect(await call('calculate', { expression: 'pi * 5**2' })).toMatchObject({ result: 78.5398163397 });
    expect(await call('calculate', { expression: 'sqrt(2) * pi' })).toMatchObject({ result: 4.44288293816 });
  });

  it('parses the way its precedence table says', async () => {
    const table: [string, number][] = [
      ['1 + 2 * 3', 7],
      ['2**3**2', 512],
      ['-2**2', -4],
      ['(-2)**2', 4],
      ['2**-1', 0.5],
      ['-7 % 3', 2],
      ['2^16', 65536],
      ['log(8, 2)', 3],
      ['max(1, 5, 3)', 5],
      ['factorial(5)', 120],
    ];
    for (const [expression, result] of table) {
      expect(await call('calculate', { expression }), expression).toMatchObject({ result });
    }
  });

  it('returns errors as JSON instead of throwing', async () => {
    for (const expression of [
      '1 / 0',
      'x + 1',
      '2 +',
      '(1',
      '1 $ 2',
      'sqrt()',
      `${'('.repeat(150)}1${')'.repeat(150)}`,
    ]) {
      const out = await call('calculate', { expression });
      expect(out.result, expression).toBeUndefined();
      expect(typeof out.error, expression).toBe('string');
    }
    expect((await call('calculate', { expression: '1 / 0' })).error).toBe('Division by zero');
    expect((await call('calculate', {})).error).toBe('No expression provided');
  });

  it("answers the guide's unit_convert prompts", async () => {
    const f = await call('unit_convert', { value: 100, from_unit: 'F', to_unit: 'C' });
    expect(f).toMatchObject({ value: 100, from_unit: 'F', to_unit: 'C' });
    expect((f.result as number).toFixed(2)).toBe('37.78');
    expect(await call('unit_convert', { value: 100, from_unit: 'fahrenheit', to_unit: 'celsius' })).toMatchObject({
      result: 37.7777777778,
    });
    const km = await call('unit_convert', { value: 5, from_unit: 'km', to_unit: 'mi' });
    expect((km.result as number).toFixed(2)).toBe('3.11');
    expect(await call('unit_convert', { value: 1.5, from_unit: 'TB', to_unit: 'GB' })).toMatchObject({ result: 1500 });
    expect(await call('unit_convert', { value: 1.5, from_unit: 'TiB', to_unit: 'GiB' })).toMatchObject({
      result: 1536,
    });
  });

  it('refuses incompatible and unknown units with an error naming them', async () => {
    expect((await call('unit_convert', { value: 1, from_unit: 'kg', to_unit: 'km' })).error).toMatch(
      /kg \(weight\).*km \(length\)/,
    );
    expect((await call('unit_convert', { value: 1, from_unit: 'parsec', to_unit: 'm' })).error).toMatch(/parsec/);
    expect((await call('unit_convert', { value: '1', from_unit: 'm', to_unit: 'km' })).error).toMatch(/value/);
  });

  it('logs every tool call at debug level from its post_tool_call hook', async () => {
    const payload = { args: {}, result: '{}', taskId: '', sessionId: 's1', toolCallId: 'c1', durationMs: 1 };
    await hooks.invoke('post_tool_call', { ...payload, toolName: 'terminal' });
    expect(logged).toContain('Tool called: terminal');
  });
});
