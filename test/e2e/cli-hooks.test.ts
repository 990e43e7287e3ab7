import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChatMessage } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { runHermes, tempHome, trustHome } from '../helpers/run-hermes.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';

const openai = useFakeOpenAI();

const chatRequests = () => openai.server.requests.filter((r) => r.path.endsWith('/chat/completions'));
const messagesOf = (i: number) => (chatRequests()[i]!.body as { messages: ChatMessage[] }).messages;

const OBSERVER_TS = `
import { appendFileSync } from 'node:fs';

const HOOKS = [
  'pre_tool_call', 'post_tool_call', 'transform_tool_result', 'transform_terminal_output',
  'pre_llm_call', 'post_llm_call', 'pre_api_request', 'post_api_request',
  'on_session_start', 'on_session_end', 'on_session_finalize', 'on_session_reset',
  'pre_approval_request', 'post_approval_response',
] as const;

type Payload = Record<string, unknown>;

function record(hook: string, payload: Payload): void {
  appendFileSync(process.env.HOOK_LOG as string, JSON.stringify({ hook, payload }) + '\\n');
}

export function register(ctx: { registerHook(e: string, cb: (p: Payload) => unknown): void }): void {
  for (const hook of HOOKS) {
    ctx.registerHook(hook, async (payload: Payload) => {
      record(hook, payload);
      if (hook === 'pre_llm_call') return { context: 'INJECTED-CONTEXT' };
      if (hook === 'pre_tool_call' && String((payload.args as Payload).command ?? '').includes('forbidden')) {
        return { action: 'block', message: 'no forbidden commands' };
      }
      if (hook === 'transform_terminal_output' && String(payload.output).includes('raw-output')) {
        return 'terminal output rewritten';
      }
      if (hook === 'transform_tool_result' && payload.toolName === 'read_file') return 'TRANSFORMED read_file result';
      return undefined;
    });
  }
}
`;

function writePlugin(home: string, name: string, files: Record<string, string>): void {
  const dir = join(home, 'plugins', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'plugin.yaml'), `name: ${name}\nversion: 1.0.0\ndescription: test plugin\n`);
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
}

type Entry = { hook: string; payload: Record<string, unknown> };

describe('plugin hooks through the real CLI', () => {
  it('fires every agent-level hook at its point with its payload and return contract', async () => {
    const home = tempHome();
    const hookLog = join(home, 'hooks.jsonl');
    writePlugin(home, 'observer', { 'index.ts': OBSERVER_TS });
    writeFileSync(join(home, 'config.yaml'), 'plugins:\n  enabled: [observer]\n');
    trustHome(home);
    // inside the file tools' default roots (HERMES_HOME itself is not one)
    mkdirSync(join(home, 'cache'), { recursive: true });
    const file = join(home, 'cache', 'data.txt');
    writeFileSync(file, 'data');
    openai.server.script(
      {
        toolCalls: [
          { name: 'terminal', arguments: { command: 'echo raw-output' } },
          { name: 'terminal', arguments: { command: 'echo forbidden' } },
          { name: 'read_file', arguments: { path: file } },
          { name: 'terminal', arguments: { command: 'rm -rf /tmp/hermes-cli-hooks-nothing/*' } },
        ],
      },
      { text: 'all done' },
    );
    const r = await runHermes(['-z', 'go'], {
      env: {
        HERMES_HOME: home,
        OPENAI_BASE_URL: openai.server.url,
        HERMES_INFERENCE_MODEL: 'test-model',
        HOOK_LOG: hookLog,
      },
    });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('all done\n');
    expect(r.code).toBe(0);

    // pre_llm_call: context appended to this turn's user message, in every step of the turn
    expect(messagesOf(0).at(-1)).toEqual({ role: 'user', content: 'go\n\nINJECTED-CONTEXT' });
    expect(messagesOf(0)[0]?.role).toBe('system');
    expect(messagesOf(1)[0]).toEqual(messagesOf(0)[0]);
    const tools = messagesOf(1)
      .filter((m) => m.role === 'tool')
      .map((m) => m.content);
    expect(JSON.parse(tools[0] ?? '').output).toBe('terminal output rewritten'); // transform_terminal_output
    expect(JSON.parse(tools[1] ?? '')).toEqual({ error: 'no forbidden commands', blocked: true }); // pre_tool_call
    expect(tools[2]).toBe('TRANSFORMED read_file result'); // transform_tool_result
    expect(JSON.parse(tools[3] ?? '')).toMatchObject({ denied: true }); // non-interactive approval denies

    const entries = readFileSync(hookLog, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Entry);
    const names = entries.map((e) => e.hook);
    const first = (h: string) => names.indexOf(h);
    const count = (h: string) => names.filter((n) => n === h).length;
    const payload = (h: string) => entries.find((e) => e.hook === h)?.payload ?? {};

    expect(names[0]).toBe('on_session_start');
    expect(first('pre_llm_call')).toBe(1);
    expect(count('pre_llm_call')).toBe(1);
    expect(count('pre_api_request')).toBe(2);
    expect(count('post_api_request')).toBe(2);
    expect(count('pre_tool_call')).toBe(4);
    expect(count('post_tool_call')).toBe(3); // the blocked call never ran
    expect(count('transform_tool_result')).toBe(3);
    expect(count('transform_terminal_output')).toBe(1); // the denied command never ran
    expect(count('pre_approval_request')).toBe(1);
    expect(count('post_approval_response')).toBe(1);
    expect(names.slice(-3)).toEqual(['post_llm_call', 'on_session_end', 'on_session_finalize']);
    expect(first('post_api_request')).toBeGreaterThan(first('pre_api_request'));
    expect(first('pre_tool_call')).toBeGreaterThan(first('post_api_request'));

    const sessionId = payload('on_session_start').sessionId;
    expect(sessionId).toMatch(/^sess_/);
    expect(payload('on_session_start')).toEqual({ sessionId, model: 'test-model', platform: 'cli' });
    expect(payload('pre_llm_call')).toMatchObject({
      sessionId,
      userMessage: 'go',
      conversationHistory: [],
      isFirstTurn: true,
      model: 'test-model',
      platform: 'cli',
    });
    expect(payload('pre_api_request')).toMatchObject({ method: 'POST', attempt: 1, sessionId });
    expect(String(payload('pre_api_request').url)).toMatch(/\/v1\/chat\/completions$/);
    expect(payload('post_api_request')).toMatchObject({ statusCode: 200, attempt: 1 });
    const post = entries.find((e) => e.hook === 'post_tool_call' && e.payload.toolName === 'read_file')?.payload;
    expect(post).toMatchObject({ toolName: 'read_file', args: { path: file }, sessionId });
    expect(typeof post?.durationMs).toBe('number');
    expect(payload('transform_terminal_output')).toMatchObject({ command: 'echo raw-output', exitCode: 0 });
    expect(String(payload('transform_terminal_output').output)).toContain('raw-output');
    expect(payload('pre_approval_request')).toMatchObject({
      command: 'rm -rf /tmp/hermes-cli-hooks-nothing/*',
      surface: 'cli',
    });
    expect(payload('post_approval_response')).toMatchObject({
      command: 'rm -rf /tmp/hermes-cli-hooks-nothing/*',
      choice: 'deny',
    });
    expect(payload('post_llm_call')).toMatchObject({ sessionId, userMessage: 'go', assistantResponse: 'all done' });
    // history passed to post_llm_call holds the original user message, never the injected context
    const history = payload('post_llm_call').conversationHistory as ChatMessage[];
    expect(history[0]).toEqual({ role: 'user', content: 'go' });
    expect(payload('on_session_end')).toEqual({
      sessionId,
      completed: true,
      interrupted: false,
      model: 'test-model',
      platform: 'cli',
    });
    expect(payload('on_session_finalize')).toEqual({ sessionId, platform: 'cli', reason: 'exit' });
  });

  it('isolates a throwing hook and a hanging hook; the turn completes', async () => {
    const home = tempHome();
    writePlugin(home, 'broken', {
      'index.mjs': `export function register(ctx) {
  ctx.registerHook('pre_llm_call', () => { throw new Error('pre_llm_call exploded'); });
  ctx.registerHook('post_llm_call', () => new Promise(() => {}));
  ctx.registerHook('pre_tool_call', async () => { throw new Error('async failure'); });
}
`,
    });
    writeFileSync(join(home, 'config.yaml'), 'plugins:\n  enabled: [broken]\n  hook_timeout_ms: 300\n');
    trustHome(home);
    openai.server.script(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo ok' } }] },
      { text: 'survived' },
    );
    const r = await runHermes(['-z', 'go'], {
      env: { HERMES_HOME: home, OPENAI_BASE_URL: openai.server.url, HERMES_INFERENCE_MODEL: 'test-model' },
    });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('survived\n');
    expect(r.code).toBe(0);
    const log = readFileSync(join(home, 'logs', 'cli.log'), 'utf8');
    expect(log).toContain('plugin:broken');
    expect(log).toContain('pre_llm_call exploded');
    expect(log).toMatch(/post_llm_call callback of plugin:broken timed out after 300 ms/);
  });

  it('hermes chat: two turns share a session; the system prompt is byte-identical; context is not persisted', async () => {
    const home = tempHome();
    const hookLog = join(home, 'hooks.jsonl');
    writePlugin(home, 'observer', { 'index.ts': OBSERVER_TS });
    writeFileSync(join(home, 'config.yaml'), 'plugins:\n  enabled: [observer]\n');
    trustHome(home);
    openai.server.script({ text: 'first answer' }, { text: 'second answer' });
    const r = await runHermes(['chat'], {
      input: 'first question\nsecond question\n/exit\n',
      env: {
        HERMES_HOME: home,
        OPENAI_BASE_URL: openai.server.url,
        HERMES_INFERENCE_MODEL: 'test-model',
        HOOK_LOG: hookLog,
      },
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('first answer');
    expect(r.stdout).toContain('second answer');
    const [a, b] = [messagesOf(0), messagesOf(1)];
    expect(b[0]).toEqual(a[0]);
    expect(b.slice(1)).toEqual([
      { role: 'user', content: 'first question' },
      { role: 'assistant', content: 'first answer' },
      { role: 'user', content: 'second question\n\nINJECTED-CONTEXT' },
    ]);
    const names = readFileSync(hookLog, 'utf8')
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as Entry).hook);
    expect(names.filter((n) => n === 'on_session_start')).toHaveLength(1);
    expect(names.filter((n) => n === 'on_session_end')).toHaveLength(2);
    expect(names.at(-1)).toBe('on_session_finalize');
  });
});
