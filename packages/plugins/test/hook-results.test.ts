// One result parser per hook kind: a JS plugin callback and a shell hook that answer the same
// thing get the same outcome from the bus (cases shared by both sources).
import type { HookName, HookPayloads } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { HookBus, readShellHooks, shellHookCallback, shellHookOwner } from '../src/index.js';
import { recordingLogger, tempDir, writeScript } from './shell-hooks/helpers.js';

const toolPayload = { toolName: 'terminal', args: { command: 'ls' }, taskId: '', sessionId: 's', toolCallId: 'c' };
const event = {
  kind: 'text' as const,
  platform: 'telegram',
  messageId: '1',
  text: 'hi',
  source: { platform: 'telegram', chatId: '1', chatType: 'dm' as const, userId: '1' },
  internal: false,
  receivedAt: 0,
  raw: null,
};
const dispatchPayload: HookPayloads['pre_gateway_dispatch'] = {
  event,
  gateway: { platforms: () => [], send: async () => ({ ok: true }) },
  sessionStore: { ingest: async () => false },
};
const llmPayload = {
  sessionId: 's',
  userMessage: 'hi',
  conversationHistory: [],
  isFirstTurn: true,
  model: 'm',
  platform: 'cli',
};

interface Case {
  hook: 'pre_tool_call' | 'pre_gateway_dispatch' | 'pre_llm_call';
  /** what the callback returns, and what the shell hook prints as JSON */
  answer: unknown;
  /** the bus's outcome; `who` is how the source is named in a default block message */
  expected: (who: string) => unknown;
}

const CASES: Case[] = [
  { hook: 'pre_tool_call', answer: { action: 'block', message: 'no' }, expected: () => block('no') },
  { hook: 'pre_tool_call', answer: { decision: 'block', reason: 'nope' }, expected: () => block('nope') },
  { hook: 'pre_tool_call', answer: { action: 'block' }, expected: (who) => block(`blocked by ${who}`) },
  { hook: 'pre_tool_call', answer: { decision: 'block', reason: ' ' }, expected: (who) => block(`blocked by ${who}`) },
  { hook: 'pre_tool_call', answer: { action: 'block', message: 42 }, expected: (who) => block(`blocked by ${who}`) },
  { hook: 'pre_tool_call', answer: { action: 'allow' }, expected: () => null },
  { hook: 'pre_tool_call', answer: { decision: 'approve', reason: 'ok' }, expected: () => null },
  { hook: 'pre_tool_call', answer: {}, expected: () => null },
  { hook: 'pre_tool_call', answer: 'block', expected: () => null },
  { hook: 'pre_tool_call', answer: null, expected: () => null },
  { hook: 'pre_gateway_dispatch', answer: { action: 'skip', reason: 'muted' }, expected: () => skip('muted') },
  { hook: 'pre_gateway_dispatch', answer: { action: 'skip' }, expected: () => skip('') },
  { hook: 'pre_gateway_dispatch', answer: { action: 'rewrite', text: 'new' }, expected: () => rewrite('new') },
  { hook: 'pre_gateway_dispatch', answer: { action: 'rewrite' }, expected: () => allow },
  { hook: 'pre_gateway_dispatch', answer: { action: 'bogus' }, expected: () => allow },
  { hook: 'pre_llm_call', answer: { context: 'remember this' }, expected: () => 'remember this' },
  { hook: 'pre_llm_call', answer: { context: '' }, expected: () => null },
  { hook: 'pre_llm_call', answer: { other: 'x' }, expected: () => null },
];

function block(message: string) {
  return { action: 'block', message };
}
function skip(reason: string) {
  return { action: 'skip', reason };
}
function rewrite(text: string) {
  return { action: 'rewrite', text };
}
const allow = { action: 'allow' };

function payloadOf(hook: Case['hook']): HookPayloads[Case['hook']] {
  if (hook === 'pre_tool_call') return toolPayload;
  if (hook === 'pre_gateway_dispatch') return dispatchPayload;
  return llmPayload;
}

async function invoke(bus: HookBus, hook: Case['hook']): Promise<unknown> {
  return bus.invoke(hook as HookName, payloadOf(hook) as never);
}

describe('one result parser per hook kind, for plugins and shell hooks alike', () => {
  it.each(CASES.map((c) => [JSON.stringify(c.answer), c] as const))('%s from a JS plugin', async (_, c) => {
    const bus = new HookBus();
    bus.register(c.hook, (() => c.answer) as never, { source: 'plugin', name: 'guard' });
    expect(await invoke(bus, c.hook)).toEqual(c.expected('plugin:guard'));
  });

  it.each(CASES.map((c) => [JSON.stringify(c.answer), c] as const))('%s from a shell hook', async (_, c) => {
    const dir = tempDir();
    const script = writeScript(dir, 'answer.sh', `cat >/dev/null\nprintf '%s' '${JSON.stringify(c.answer)}'\n`);
    const { hooks, warnings } = readShellHooks(
      { [c.hook]: [{ command: script }] },
      { configPath: 'config.yaml', userHome: '/nonexistent' },
    );
    expect(warnings).toEqual([]);
    const spec = hooks[0]!;
    const logger = recordingLogger();
    const bus = new HookBus({ logger });
    bus.register(spec.event, shellHookCallback(spec, spec.event, { cwd: dir, logger }), shellHookOwner(spec));
    expect(await invoke(bus, c.hook)).toEqual(c.expected(`shell hook ${script}`));
  });
});
