// docs/context-engines.md is runnable and true: its example engine, copied into
// HERMES_HOME/plugins/context_engine/user-notes/ and enabled, registers through ctx.registerContextEngine,
// is selected by context.engine and compresses a turn's history without a model call; an unknown
// context.engine is an error naming the registered engines; its config samples are valid.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ModelClient, selectContextEngine, ToolRegistry, TurnService } from '@hermes/agent';
import { loadConfig } from '@hermes/config';
import { HookBus, loadPlugins, PluginRegistries } from '@hermes/plugins';
import { type ChatMessage, ERROR_CODES, silentLogger } from '@hermes/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileBlocks } from './helpers/doc-blocks.js';
import { useFakeOpenAI } from './helpers/use-fake-openai.js';

const DOC = readFileSync(fileURLToPath(new URL('../docs/context-engines.md', import.meta.url)), 'utf8');
const SDK = fileURLToPath(new URL('../packages/plugin-sdk/src/index.ts', import.meta.url));

const yamlSamples = [...DOC.matchAll(/^```yaml\n([\s\S]*?)^```/gm)]
  .map((m) => m[1] ?? '')
  .filter((b) => !b.startsWith('# file:'));

const openai = useFakeOpenAI();
let home = '';
beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'hermes-docs-context-'));
});
afterAll(() => {
  if (home) rmSync(home, { recursive: true, force: true });
});

async function loadExample(): Promise<PluginRegistries> {
  const dir = join(home, 'plugins', 'context_engine', 'user-notes');
  mkdirSync(dir, { recursive: true });
  for (const [file, body] of fileBlocks(DOC)) writeFileSync(join(dir, file), body);
  writeFileSync(join(home, 'config.yaml'), yamlSamples.find((s) => s.includes('context_engine/user-notes')) ?? '');
  const config = loadConfig({ home, env: {} }).config;
  const registries = new PluginRegistries();
  const records = await loadPlugins({
    dirs: [{ dir: join(home, 'plugins'), source: 'user' }],
    enabled: config.plugins.enabled,
    disabled: [],
    env: {},
    tools: new ToolRegistry(),
    hooks: new HookBus(),
    logger: silentLogger,
    host: { registries },
    aliases: { '@hermes/plugin-sdk': SDK },
  });
  expect(records.find((r) => r.key === 'context_engine/user-notes')).toMatchObject({ state: 'enabled', error: null });
  return registries;
}

describe('docs/context-engines.md', () => {
  it('shows three files of the example plugin', () => {
    expect([...fileBlocks(DOC).keys()].sort()).toEqual(['engine.ts', 'index.ts', 'plugin.yaml']);
  });

  it('its example, a user plugin selected by context.engine, compresses a turn without a model call', async () => {
    const registries = await loadExample();
    expect(registries.contextEngines.get('user-notes')?.plugin).toBe('context_engine/user-notes');
    const config = loadConfig({ home, env: {} }).config;
    expect(config.context.engine).toBe('user-notes');
    const engine = selectContextEngine(config.context.engine, registries.contextEngines);
    const hooks = new HookBus();
    const rows: ChatMessage[] = [];
    for (let i = 0; i < 30; i++) {
      rows.push({ role: 'user', content: `note ${i}: ${'words '.repeat(60)}` });
      rows.push({ role: 'assistant', content: `reply ${i}: ${'more '.repeat(60)}` });
    }
    const turns = new TurnService({
      client: new ModelClient({ baseUrl: openai.server.url, apiKey: 'k', timeoutMs: 5_000, maxRetries: 0, hooks }),
      model: 'fake-model',
      tools: new ToolRegistry(),
      toolsets: ['*'],
      env: {},
      hooks,
      logger: silentLogger,
      cwd: process.cwd(),
      maxIterations: 3,
      toolTimeoutMs: 5_000,
      context: { engine, contextLength: 4000, threshold: 0.75, protectLastN: config.context.protect_last_n },
    });
    openai.server.script({ text: 'answer' });
    const result = await turns.run({
      sessionId: 's',
      platform: 'cli',
      userMessage: 'hello',
      history: rows,
      persist: 'none',
      approval: async () => 'deny',
    });
    expect(result.finalText).toBe('answer');
    const chats = openai.server.requests.filter((r) => r.path === '/v1/chat/completions');
    expect(chats).toHaveLength(1); // no summary request: the engine wrote the summary itself
    const sent = chats[0]?.body?.messages as ChatMessage[];
    const summary = sent.find((m) => typeof m.content === 'string' && m.content.includes('Earlier, the user said:'));
    expect(summary?.content).toContain('- note 1: words');
    expect(sent.length).toBeLessThan(rows.length);
  });

  it('an unknown context.engine is an error naming the registered engines', async () => {
    const registries = await loadExample();
    let error: unknown;
    try {
      selectContextEngine('summarizer', registries.contextEngines);
    } catch (err) {
      error = err;
    }
    expect(error).toMatchObject({ code: ERROR_CODES.CONFIG_KEY });
    expect(String((error as Error).message)).toContain('registered: compressor, user-notes');
  });

  it('its config samples are valid config.yaml without warnings', () => {
    expect(yamlSamples.length).toBeGreaterThan(1);
    for (const sample of yamlSamples) {
      const dir = mkdtempSync(join(tmpdir(), 'hermes-docs-context-cfg-'));
      writeFileSync(join(dir, 'config.yaml'), sample);
      expect(loadConfig({ home: dir, env: {} }).warnings.map((w) => w.message)).toEqual([]);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
