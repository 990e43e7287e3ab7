// The docs are part of the feature: their samples run and their tables match the code.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ToolRegistry } from '@hermes/agent';
import { loadConfig } from '@hermes/config';
import { HOOK_REFERENCE_BEGIN, HOOK_REFERENCE_END, HookBus, hookReferenceMarkdown, loadPlugins } from '@hermes/plugins';
import { ERROR_CODES, silentLogger } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { runHermes } from './helpers/run-hermes.js';

const doc = (name: string) => readFileSync(fileURLToPath(new URL(`../docs/${name}`, import.meta.url)), 'utf8');

/** Fenced blocks of a Markdown text, with their info string. */
function fences(markdown: string): { lang: string; body: string }[] {
  const out: { lang: string; body: string }[] = [];
  const re = /^```(\w*)\n([\s\S]*?)^```/gm;
  for (let m = re.exec(markdown); m !== null; m = re.exec(markdown)) out.push({ lang: m[1] ?? '', body: m[2] ?? '' });
  return out;
}

describe('docs', () => {
  it('docs/state.md says from its first lines that the gateway runs on PostgreSQL, as its later sections do', () => {
    const text = doc('state.md');
    const opening = text.split('\n## ')[0] ?? '';
    expect(opening).not.toMatch(/gateway not yet/);
    expect(opening).toMatch(/PostgreSQL database\]\(#postgresql\): every CLI command and the gateway/);
    // the later section that says so, which the opening must not contradict
    expect(text).toMatch(/several\s+gateway instances on one PostgreSQL/);
  });

  it('docs/hooks.md embeds exactly the reference generated from the hook table', () => {
    const text = doc('hooks.md');
    const start = text.indexOf(HOOK_REFERENCE_BEGIN) + HOOK_REFERENCE_BEGIN.length;
    const end = text.indexOf(HOOK_REFERENCE_END);
    expect(text.slice(start, end).trim()).toBe(hookReferenceMarkdown().trim());
  });

  it('docs/errors.md documents every error code', () => {
    const text = doc('errors.md');
    for (const code of Object.values(ERROR_CODES)) expect(text).toContain(`\`${code}\``);
  });

  it('the plugin in docs/plugins.md loads and its tool works', async () => {
    const home = mkdtempSync(join(tmpdir(), 'hermes-docs-'));
    const dir = join(home, 'plugins', 'wordcount');
    mkdirSync(dir, { recursive: true });
    let files = 0;
    for (const block of fences(doc('plugins.md'))) {
      const m = /^(?:\/\/|#) file: (\S+)\n/.exec(block.body);
      if (!m?.[1]) continue;
      writeFileSync(join(dir, m[1]), block.body.slice(m[0].length));
      files++;
    }
    expect(files).toBe(3);
    const tools = new ToolRegistry();
    const hooks = new HookBus();
    const [record] = await loadPlugins({
      dirs: [{ dir: join(home, 'plugins'), source: 'user' }],
      enabled: ['wordcount'],
      disabled: [],
      env: {},
      tools,
      hooks,
      logger: silentLogger,
    });
    expect(record?.error).toBeNull();
    expect(record?.state).toBe('enabled');
    expect(hooks.count('post_tool_call')).toBe(1);
    const tool = tools.get('count_words');
    const result = await tool?.handler({ text: 'the quick brown fox' }, {} as never);
    expect(result).toEqual({ words: 4, meaningful: 3, characters: 19 });
  });

  it('the definePlugin sample in docs/plugins.md loads as a plugin', async () => {
    const sample = fences(doc('plugins.md')).find((b) => b.lang === 'ts' && b.body.includes('definePlugin'));
    expect(sample).toBeDefined();
    const home = mkdtempSync(join(tmpdir(), 'hermes-docs-sdk-'));
    const dir = join(home, 'plugins', 'sdk-sample');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'plugin.yaml'), 'name: sdk-sample\n');
    writeFileSync(join(dir, 'index.ts'), sample?.body ?? '');
    const hooks = new HookBus();
    const [record] = await loadPlugins({
      dirs: [{ dir: join(home, 'plugins'), source: 'user' }],
      enabled: ['sdk-sample'],
      disabled: [],
      env: {},
      tools: new ToolRegistry(),
      hooks,
      logger: silentLogger,
      aliases: { '@hermes/plugin-sdk': fileURLToPath(new URL('../packages/plugin-sdk/src/index.ts', import.meta.url)) },
    });
    expect(record?.error).toBeNull();
    expect(hooks.count('post_tool_call')).toBe(1);
  });

  it('every yaml sample in docs/configuration.md is a valid config without warnings', () => {
    const samples = fences(doc('configuration.md')).filter((b) => b.lang === 'yaml');
    expect(samples.length).toBeGreaterThan(0);
    for (const sample of samples) {
      const home = mkdtempSync(join(tmpdir(), 'hermes-docs-cfg-'));
      writeFileSync(join(home, 'config.yaml'), sample.body);
      const { warnings } = loadConfig({ home, env: {} });
      expect(warnings.map((w) => w.message)).toEqual([]);
    }
  });

  it('every command in docs/cli.md exists', async () => {
    const rows = doc('cli.md').match(/^\| `hermes [^`]*`\s*\|/gm) ?? [];
    const commands = new Set(rows.map((r) => (/`hermes ([a-z]+(?: [a-z]+)?)/.exec(r)?.[1] ?? '').trim()));
    expect(commands.size).toBeGreaterThanOrEqual(5);
    // ~50 CLI starts: four at a time, so a loaded machine does not turn the list into a timeout
    const queue = [...commands];
    const check = async () => {
      for (let command = queue.shift(); command !== undefined; command = queue.shift()) {
        const r = await runHermes([...command.split(' ').filter(Boolean), '--help']);
        expect(r.code, `hermes ${command} --help`).toBe(0);
        expect(r.stdout).toContain('Usage: hermes');
      }
    };
    await Promise.all([check(), check(), check(), check()]);
  }, 180_000);
});
