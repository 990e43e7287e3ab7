// The bundled calculator plugin: loads through the real loader, registers what its manifest says, never evals.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ToolRegistry } from '@hermes/agent';
import { HookBus, loadPlugins } from '@hermes/plugins';
import { type Logger, silentLogger } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';

const PLUGINS = fileURLToPath(new URL('../../plugins', import.meta.url));
const PLUGIN_DIR = join(PLUGINS, 'calculator');

function recordingLogger(lines: { obj: unknown; msg: string | undefined }[]): Logger {
  const log = (obj: unknown, msg?: string) => {
    lines.push(typeof obj === 'string' ? { obj: null, msg: obj } : { obj, msg });
  };
  const logger: Logger = { trace: log, debug: log, info: log, warn: log, error: log, fatal: log, child: () => logger };
  return logger;
}

async function load(logger: Logger = silentLogger) {
  const tools = new ToolRegistry();
  const hooks = new HookBus();
  const records = await loadPlugins({
    dirs: [{ dir: PLUGINS, source: 'bundled' }],
    enabled: ['calculator'],
    disabled: [],
    env: {},
    tools,
    hooks,
    logger,
  });
  return { record: records.find((r) => r.key === 'calculator'), tools, hooks };
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|js|mjs)$/.test(name) ? [path] : [];
  });
}

describe('calculator plugin', () => {
  it('loads from plugins/ when enabled and registers exactly what plugin.yaml declares', async () => {
    const { record, tools, hooks } = await load();
    expect(record?.error).toBeNull();
    expect(record?.state).toBe('enabled');
    expect(record?.source).toBe('bundled');
    expect(record?.manifest).toMatchObject({ name: 'calculator', version: '1.0.0', kind: 'standalone' });
    expect(record?.tools).toEqual(record?.manifest?.providesTools);
    expect(record?.hooks).toEqual(record?.manifest?.providesHooks);
    expect(record?.tools).toEqual(['calculate', 'unit_convert']);
    for (const name of ['calculate', 'unit_convert']) {
      expect(tools.get(name)).toMatchObject({ toolset: 'calculator', owner: 'plugin:calculator', schema: { name } });
    }
    expect(hooks.count('post_tool_call')).toBe(1);
  });

  it('is opt-in: not enabled means not loaded', async () => {
    const tools = new ToolRegistry();
    const records = await loadPlugins({
      dirs: [{ dir: PLUGINS, source: 'bundled' }],
      enabled: [],
      disabled: [],
      env: {},
      tools,
      hooks: new HookBus(),
      logger: silentLogger,
    });
    expect(records.find((r) => r.key === 'calculator')?.state).toBe('not_enabled');
    expect(tools.get('calculate')).toBeUndefined();
  });

  it('logs every tool call (any tool) at debug level from its post_tool_call hook', async () => {
    const lines: { obj: unknown; msg: string | undefined }[] = [];
    const { hooks } = await load(recordingLogger(lines));
    const payload = { args: {}, result: '{}', taskId: 't1', sessionId: 's1', toolCallId: 'c1', durationMs: 3 };
    await hooks.invoke('post_tool_call', { ...payload, toolName: 'terminal' });
    await hooks.invoke('post_tool_call', { ...payload, toolName: 'calculate' });
    const calls = lines.filter((l) => l.msg?.startsWith('tool called:'));
    expect(calls.map((l) => l.obj)).toEqual([
      { toolName: 'terminal', sessionId: 's1', taskId: 't1', durationMs: 3 },
      { toolName: 'calculate', sessionId: 's1', taskId: 't1', durationMs: 3 },
    ]);
  });

  it('keeps only the last 100 calls in memory', async () => {
    const { createCallLog } = (await import(pathToFileURL(join(PLUGIN_DIR, 'call-log.ts')).href)) as {
      createCallLog: (logger: Logger) => {
        entries: readonly { tool: string }[];
        hook: (p: { toolName: string; sessionId: string; taskId: string; durationMs: number }) => void;
      };
    };
    const log = createCallLog(silentLogger);
    for (let i = 0; i < 150; i++) log.hook({ toolName: `tool${i}`, sessionId: 's', taskId: 't', durationMs: 0 });
    expect(log.entries).toHaveLength(100);
    expect(log.entries[0]?.tool).toBe('tool50');
    expect(log.entries[99]?.tool).toBe('tool149');
  });

  it('registers its bundled skill when the host supports skills, and loads without them', async () => {
    const mod = (await import(pathToFileURL(join(PLUGIN_DIR, 'index.ts')).href)) as {
      register: (ctx: unknown) => void;
      default: unknown;
    };
    expect(mod.default).toBe(mod.register);
    const skills: { name: string; description?: string; path?: string }[] = [];
    const tools: string[] = [];
    const base = {
      key: 'calculator',
      dir: PLUGIN_DIR,
      logger: silentLogger,
      registerTool: (t: { name: string }) => tools.push(t.name),
      registerHook: () => {},
    };
    mod.register({ ...base, registerSkill: (s: (typeof skills)[number]) => skills.push(s) });
    expect(skills).toEqual([
      {
        name: 'calculator',
        description: expect.any(String),
        path: join(PLUGIN_DIR, 'skills', 'calculator', 'SKILL.md'),
      },
    ]);
    const skill = readFileSync(skills[0]?.path ?? '', 'utf8');
    expect(skill).toMatch(/^---\nname: calculator\ndescription: .+\n---\n/);
    expect(skill).toContain('calculate');
    expect(skill).toContain('unit_convert');
    mod.register(base);
    expect(tools).toEqual(['calculate', 'unit_convert', 'calculate', 'unit_convert']);
  });

  it('never evaluates code: no eval, Function or node:vm anywhere in its sources', () => {
    const files = sourceFiles(PLUGIN_DIR);
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      expect(text, file).not.toMatch(/\beval\s*\(/);
      expect(text, file).not.toMatch(/\bFunction\s*\(/);
      expect(text, file).not.toMatch(/['"](node:)?vm['"]/);
      expect(text, file).not.toMatch(/\brequire\s*\(/);
    }
  });

  it('ships its unit table as a data file', () => {
    expect(existsSync(join(PLUGIN_DIR, 'data', 'units.json'))).toBe(true);
    const data = JSON.parse(readFileSync(join(PLUGIN_DIR, 'data', 'units.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(data)).toEqual(
      expect.arrayContaining(['length', 'mass', 'temperature', 'data', 'time', 'volume']),
    );
  });
});
