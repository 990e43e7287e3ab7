// docs/shell-hooks.md: every example config loads without warnings and every example script,
// written to a temporary home, does what the doc says through the real consent and runner.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '@hermes/config';
import { HookBus, registerShellHooks } from '@hermes/plugins';
import { describe, expect, it } from 'vitest';

const doc = readFileSync(fileURLToPath(new URL('../docs/shell-hooks.md', import.meta.url)), 'utf8');

function fences(markdown: string): { lang: string; body: string }[] {
  const out: { lang: string; body: string }[] = [];
  const re = /^```(\w*)\n([\s\S]*?)^```/gm;
  for (let m = re.exec(markdown); m !== null; m = re.exec(markdown)) out.push({ lang: m[1] ?? '', body: m[2] ?? '' });
  return out;
}

/** Example configs (yaml fences starting `# example: NAME`) and scripts (second line `# ~/…` or `// ~/…`). */
const examples = fences(doc)
  .filter((f) => f.lang === 'yaml')
  .map((f) => ({ name: /^# example: (\S+)\n/.exec(f.body)?.[1], config: f.body }))
  .filter((e): e is { name: string; config: string } => e.name !== undefined);
const scripts = fences(doc)
  .map((f) => ({ path: /^#!.*\n(?:#|\/\/) (~\/\S+)\n/.exec(f.body)?.[1], body: f.body }))
  .filter((s): s is { path: string; body: string } => s.path !== undefined);

const toolPayload = (toolName: string, args: Record<string, unknown>) => ({
  toolName,
  args,
  taskId: '',
  sessionId: 'sess_doc',
  toolCallId: 'call_1',
});

/** What each example must do, by name: fired through the bus the hooks were registered on. */
const SCENARIOS: Record<string, (bus: HookBus, home: string, cwd: string) => Promise<void>> = {
  'block-rm-rf': async (bus) => {
    expect(await bus.invoke('pre_tool_call', toolPayload('terminal', { command: 'rm -rf /' }))).toEqual({
      action: 'block',
      message: 'blocked: rm -rf / is not permitted',
    });
    expect(await bus.invoke('pre_tool_call', toolPayload('terminal', { command: 'ls -la /' }))).toBeNull();
  },
  'stay-in-project': async (bus, _home, cwd) => {
    const outside = await bus.invoke('pre_tool_call', toolPayload('write_file', { path: '/etc/passwd' }));
    expect(outside).toEqual({ action: 'block', message: `writing outside ${cwd} is refused: /etc/passwd` });
    expect(await bus.invoke('pre_tool_call', toolPayload('write_file', { path: 'notes/today.md' }))).toBeNull();
    expect(await bus.invoke('pre_tool_call', toolPayload('terminal', { path: '/etc/passwd' }))).toBeNull(); // matcher
  },
  'inject-context': async (bus) => {
    const context = await bus.invoke('pre_llm_call', {
      sessionId: 'sess_doc',
      userMessage: 'hi',
      conversationHistory: [],
      isFirstTurn: true,
      model: 'm',
      platform: 'cli',
    });
    expect(context).toMatch(/^Today is [A-Z][a-z]+day\. Git branch: \S+\.$/);
  },
  'log-tool-calls': async (bus, home) => {
    const payload = { ...toolPayload('read_file', { path: 'a.txt' }), result: '{"content":"x"}', durationMs: 3 };
    expect(await bus.invoke('post_tool_call', payload)).toBeUndefined();
    const lines = readFileSync(join(home, '.hermes', 'logs', 'tool-calls.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(lines.map((l) => JSON.parse(l))).toMatchObject([
      {
        hook_event_name: 'post_tool_call',
        tool_name: 'read_file',
        tool_input: { path: 'a.txt' },
        extra: { duration_ms: 3 },
      },
    ]);
  },
  'summarize-long-output': async (bus, _home, cwd) => {
    const long = Array.from({ length: 500 }, (_, i) => `line ${i}`).join('\n');
    const replaced = await bus.invoke('transform_terminal_output', {
      command: 'find .',
      output: long,
      exitCode: 0,
      cwd,
      taskId: null,
    });
    expect(replaced).toContain('line 39\n\n[summary: 500 lines in total, the first 40 shown]');
    expect(replaced).not.toContain('line 40\n');
    const short = await bus.invoke('transform_terminal_output', {
      command: 'ls',
      output: 'a\nb',
      exitCode: 0,
      cwd,
      taskId: null,
    });
    expect(short).toBeNull();
  },
};

describe('docs/shell-hooks.md examples', () => {
  it('has a scenario for every example and a script for every command', () => {
    expect(examples.map((e) => e.name).sort()).toEqual(Object.keys(SCENARIOS).sort());
    expect(scripts.length).toBe(examples.length);
    for (const e of examples) expect(scripts.some((s) => e.config.includes(s.path))).toBe(true);
  });

  it.each(examples)('$name: the config loads cleanly and the script does what the doc says', async ({
    name,
    config,
  }) => {
    const home = mkdtempSync(join(tmpdir(), 'hermes-docs-shell-'));
    const cwd = join(home, 'project');
    mkdirSync(cwd);
    for (const s of scripts) {
      const path = join(home, s.path.slice(2));
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, s.body);
      chmodSync(path, 0o755);
    }
    const hermesHome = join(home, '.hermes');
    writeFileSync(join(hermesHome, 'config.yaml'), config);
    const loaded = loadConfig({ home: hermesHome, env: {} });
    expect(loaded.warnings).toEqual([]);
    const bus = new HookBus();
    const warnings: string[] = [];
    const result = await registerShellHooks({
      bus,
      hooks: loaded.config.hooks,
      configPath: loaded.path,
      allowlistPath: join(hermesHome, 'shell-hooks-allowlist.json'),
      userHome: home,
      cwd,
      autoAccept: 'HERMES_ACCEPT_HOOKS',
      prompt: null,
      warn: (m) => warnings.push(m),
      env: { ...process.env, HOME: home },
    });
    expect(warnings).toEqual([]);
    expect(result.registered).toHaveLength(1);
    await SCENARIOS[name]?.(bus, home, cwd);
  });
});
