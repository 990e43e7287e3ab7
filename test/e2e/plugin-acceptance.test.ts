import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChatMessage } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { runHermes, tempHome, trustAll, trustHome } from '../helpers/run-hermes.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';

const openai = useFakeOpenAI();

function writePlugin(home: string, name: string, entry: string, file = 'index.ts'): void {
  const dir = join(home, 'plugins', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'plugin.yaml'), `name: ${name}\nversion: 2.0.0\ndescription: ${name} plugin\n`);
  writeFileSync(join(dir, file), entry);
}

const env = (home: string, extra: Record<string, string> = {}) => ({
  HERMES_HOME: home,
  OPENAI_BASE_URL: openai.server.url,
  HERMES_INFERENCE_MODEL: 'test-model',
  ...extra,
});

type ListEntry = {
  key: string;
  state: string;
  error: string | null;
  tools: string[];
  hooks: string[];
  version: string;
};
const list = async (home: string) =>
  JSON.parse((await runHermes(['plugins', 'list', '--json'], { env: env(home) })).stdout) as ListEntry[];

describe('a TypeScript plugin, end to end', () => {
  it('is listed not enabled, enabled by the CLI, its tool answers through -z and its hook fires', async () => {
    const home = tempHome();
    const hookLog = join(home, 'hook.log');
    writePlugin(
      home,
      'greeter',
      `import { appendFileSync } from 'node:fs';
import type { PluginContext } from '@hermes/plugin-sdk';
interface Args { name?: unknown }
export function register(ctx: PluginContext): void {
  ctx.registerTool({
    name: 'greet', toolset: 'greeter',
    schema: { name: 'greet', description: 'Greet someone', parameters: { type: 'object', properties: { name: { type: 'string' } } } },
    handler: async (args: Args) => ({ greeting: \`Hello, \${String(args.name)}!\` }),
  });
  ctx.registerHook('post_tool_call', ({ toolName, durationMs }) => {
    appendFileSync(process.env.HOOK_LOG as string, \`\${toolName} \${typeof durationMs}\\n\`);
  });
}
`,
    );
    const before = (await list(home)).find((p) => p.key === 'greeter');
    expect(before).toMatchObject({ state: 'not_enabled', version: '2.0.0' });

    const enable = await runHermes(['plugins', 'enable', 'greeter', '--yes'], { env: env(home) });
    expect(enable.code).toBe(0);
    expect((await list(home)).find((p) => p.key === 'greeter')).toMatchObject({
      state: 'enabled',
      tools: ['greet'],
      hooks: ['post_tool_call'],
    });

    openai.server.script({ toolCalls: [{ name: 'greet', arguments: { name: 'Ada' } }] });
    openai.server.respond((req) => {
      const tool = (req.body as { messages: ChatMessage[] }).messages.find((m) => m.role === 'tool');
      return { text: tool ? (JSON.parse(tool.content) as { greeting: string }).greeting : 'no tool' };
    });
    const r = await runHermes(['-z', 'greet Ada'], { env: env(home, { HOOK_LOG: hookLog }) });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('Hello, Ada!\n');
    expect(readFileSync(hookLog, 'utf8')).toBe('greet number\n');
  });
});

describe('isolation', () => {
  it('a throwing register, a throwing tool, a throwing hook and a hanging hook leave the agent answering', async () => {
    const home = tempHome();
    writePlugin(home, 'bad-register', `export function register() { throw new Error('cannot start'); }`, 'index.mjs');
    writePlugin(
      home,
      'bad-tool',
      `export function register(ctx) {
  ctx.registerTool({ name: 'explode', toolset: 'x',
    schema: { name: 'explode', description: 'd', parameters: { type: 'object', properties: {} } },
    handler: () => { throw new Error('tool went boom'); } });
}`,
      'index.mjs',
    );
    writePlugin(
      home,
      'bad-hooks',
      `export function register(ctx) {
  ctx.registerHook('pre_llm_call', () => { throw new Error('hook went boom'); });
  ctx.registerHook('post_tool_call', () => new Promise(() => {}));
}`,
      'index.mjs',
    );
    writeFileSync(
      join(home, 'config.yaml'),
      'plugins:\n  enabled: [bad-register, bad-tool, bad-hooks]\n  hook_timeout_ms: 300\n',
    );
    trustHome(home);
    openai.server.script({ toolCalls: [{ name: 'explode', arguments: {} }] });
    openai.server.respond((req) => {
      const tool = (req.body as { messages: ChatMessage[] }).messages.find((m) => m.role === 'tool');
      return { text: `tool said: ${tool?.content ?? 'nothing'}` };
    });
    const r = await runHermes(['-z', 'go'], { env: env(home) });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('tool said: {"error":"tool explode failed: tool went boom"}\n');

    const entries = await list(home);
    expect(entries.find((p) => p.key === 'bad-register')).toMatchObject({ state: 'failed', error: 'cannot start' });
    expect(entries.find((p) => p.key === 'bad-tool')?.state).toBe('enabled');
    const log = readFileSync(join(home, 'logs', 'cli.log'), 'utf8');
    expect(log).toMatch(/pre_llm_call callback of plugin:bad-hooks failed: hook went boom/);
    expect(log).toMatch(/post_tool_call callback of plugin:bad-hooks timed out after 300 ms/);
    expect(log).toMatch(/plugin bad-register failed to load: cannot start/);
  });
});

describe('plugin commands in chat and on the command line', () => {
  it('/plugins, a plugin slash command that injects a message, and hermes <plugin-command>', async () => {
    const home = tempHome();
    writePlugin(
      home,
      'helper',
      `export function register(ctx) {
  ctx.registerTool({ name: 'noop', toolset: 'h',
    schema: { name: 'noop', description: 'd', parameters: { type: 'object', properties: {} } }, handler: () => 'ok' });
  ctx.registerHook('on_session_start', () => {});
  ctx.registerCommand({ name: 'ask', description: 'ask the agent something later', handler: (args) => {
    const queued = ctx.injectMessage('injected: ' + args);
    return queued ? 'queued' : 'no chat';
  } });
  ctx.registerCliCommand({ name: 'helper-say', help: 'say something', setup: (cmd) => {
    cmd.argument('<word>').action((word) => { process.stdout.write('helper says ' + word + '\\n'); });
  } });
}`,
      'index.mjs',
    );
    writeFileSync(join(home, 'config.yaml'), 'plugins:\n  enabled: [helper]\n');
    trustHome(home);
    openai.server.script({ text: 'answer to the injected question' });
    const chat = await runHermes(['chat'], { env: env(home), input: '/plugins\n/ask the weather\n/exit\n' });
    expect(chat.code).toBe(0);
    expect(chat.stdout).toMatch(/Plugins \(\d+\):/);
    expect(chat.stdout).toContain('✓ helper v2.0.0 (1 tools, 1 hooks)');
    expect(chat.stdout).toContain('queued');
    expect(chat.stdout).toContain('answer to the injected question');
    const last = (openai.server.requests.at(-1)?.body as { messages: ChatMessage[] }).messages.at(-1);
    expect(last).toEqual({ role: 'user', content: 'injected: the weather' });

    const cli = await runHermes(['helper-say', 'hi'], { env: env(home) });
    expect(cli.stdout).toBe('helper says hi\n');
    expect(cli.code).toBe(0);
  });
});

describe('project plugins and host services', () => {
  it('./.hermes/plugins loads only with HERMES_ENABLE_PROJECT_PLUGINS=true', async () => {
    const home = tempHome();
    const project = tempHome();
    const dir = join(project, '.hermes', 'plugins', 'projplug');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'plugin.yaml'), 'name: projplug\nversion: 1.0.0\n');
    writeFileSync(join(dir, 'index.mjs'), 'export function register() {}\n');
    writeFileSync(join(home, 'config.yaml'), 'plugins:\n  enabled: [projplug]\n');
    const keys = async (extra: Record<string, string>) =>
      (
        JSON.parse(
          (await runHermes(['plugins', 'list', '--json'], { env: env(home, extra), cwd: project })).stdout,
        ) as ListEntry[]
      ).map((p) => `${p.key}:${p.state}`);
    expect(await keys({})).not.toContain('projplug:enabled');
    expect((await keys({})).some((k) => k.startsWith('projplug'))).toBe(false);
    // seen with the flag, but a project's plugin is code nobody approved yet: it waits for the operator
    expect(await keys({ HERMES_ENABLE_PROJECT_PLUGINS: 'true' })).toContain('projplug:not_approved');
    trustAll({ HERMES_HOME: home, HERMES_ENABLE_PROJECT_PLUGINS: 'true' }, project);
    expect(await keys({ HERMES_ENABLE_PROJECT_PLUGINS: 'true' })).toContain('projplug:enabled');
  });

  it('ctx.dispatchTool runs a real tool and ctx.llm.complete uses the configured model', async () => {
    const home = tempHome();
    writePlugin(
      home,
      'services',
      `export function register(ctx) {
  ctx.registerCommand({ name: 'calc', handler: (args) => ctx.dispatchTool('calculate', { expression: args }) });
  ctx.registerCommand({ name: 'haiku', handler: (args) => ctx.llm.complete('haiku about ' + args) });
}`,
      'index.mjs',
    );
    writeFileSync(join(home, 'config.yaml'), 'plugins:\n  enabled: [services, calculator]\n');
    trustHome(home);
    openai.server.script({ text: 'autumn moon rises' });
    const r = await runHermes(['chat'], { env: env(home), input: '/calc 6*7\n/haiku the sea\n/exit\n' });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/"result":42/);
    expect(r.stdout).toContain('autumn moon rises');
    expect(openai.server.requests.at(-1)?.body).toMatchObject({
      model: 'test-model',
      messages: [{ role: 'user', content: 'haiku about the sea' }],
    });
  });
});
