import type { ChatMessage, ToolDefinition } from '@hermes/protocol';
import { ERROR_CODES } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../../../test/helpers/use-fake-openai.js';
import { waitFor } from '../../../test/helpers/wait-for.js';
import { client, echoTool, recordAll, recordingBus, turn } from './helpers.js';

const openai = useFakeOpenAI();

const chatRequests = () => openai.server.requests.filter((r) => r.path.endsWith('/chat/completions'));
const messagesOf = (i: number) => (chatRequests()[i]!.body as { messages: ChatMessage[] }).messages;

describe('runTurn', () => {
  it('answers with text and returns the messages to persist', async () => {
    const { bus } = recordingBus();
    openai.server.script({ text: 'hi there' });
    const result = await turn({ client: client(openai.server.url, bus), hooks: bus });
    expect(result.status).toBe('completed');
    expect(result.finalText).toBe('hi there');
    expect(result.messages).toEqual([
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: 'hi there' },
    ]);
    expect(messagesOf(0)).toEqual([
      { role: 'system', content: 'SYSTEM' },
      { role: 'user', content: 'hello' },
    ]);
  });

  it('runs a tool and sends its result back to the model', async () => {
    const { bus, calls } = recordingBus();
    recordAll(bus, calls, ['pre_tool_call', 'post_tool_call', 'transform_tool_result']);
    openai.server.script(
      { toolCalls: [{ name: 'echo', arguments: { text: 'ping' } }] },
      { text: 'the tool said ping' },
    );
    const result = await turn({ client: client(openai.server.url, bus), hooks: bus, tools: [echoTool] });
    expect(result.status).toBe('completed');
    expect(result.finalText).toBe('the tool said ping');
    const second = messagesOf(1);
    const toolMsg = second.find((m) => m.role === 'tool');
    expect(toolMsg).toMatchObject({ role: 'tool', content: '{"echoed":"ping"}' });
    expect(chatRequests()[0]?.body).toMatchObject({ tools: [{ type: 'function', function: { name: 'echo' } }] });
    expect(calls.map((c) => c.hook)).toEqual(['pre_tool_call', 'post_tool_call', 'transform_tool_result']);
    expect(calls[0]?.payload).toMatchObject({ toolName: 'echo', args: { text: 'ping' }, sessionId: 'sess_1' });
    expect(calls[1]?.payload).toMatchObject({ toolName: 'echo', result: '{"echoed":"ping"}' });
    expect(typeof calls[1]?.payload.durationMs).toBe('number');
  });

  it('sums the usage the model reported over the turn, streaming or not', async () => {
    const { bus } = recordingBus();
    openai.server.script(
      { toolCalls: [{ name: 'echo', arguments: { text: 'a' } }], usage: { prompt_tokens: 50, completion_tokens: 7 } },
      { text: 'done', usage: { prompt_tokens: 70, completion_tokens: 3 } },
      { text: 'streamed', usage: { prompt_tokens: 9, completion_tokens: 2 } },
    );
    const result = await turn({ client: client(openai.server.url, bus), hooks: bus, tools: [echoTool] });
    expect(result.usage).toEqual({ prompt_tokens: 120, completion_tokens: 10, total_tokens: 130 });
    const streamed = await turn({ client: client(openai.server.url, bus), hooks: bus, onDelta: () => {} });
    expect(streamed.usage).toEqual({ prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 });
  });

  it('runs parallel tool calls concurrently and keeps their order', async () => {
    const { bus } = recordingBus();
    let running = 0;
    const slow: ToolDefinition = {
      ...echoTool,
      name: 'slow',
      schema: { ...echoTool.schema, name: 'slow' },
      handler: async (args) => {
        running += 1; // each call waits for all three to be running: in series, the first never ends
        await waitFor(() => running === 3, { what: 'the three tool calls running at once', timeoutMs: 5_000 });
        return `done ${String(args.text)}`;
      },
    };
    openai.server.script(
      {
        toolCalls: [
          { name: 'slow', arguments: { text: 'a' } },
          { name: 'slow', arguments: { text: 'b' } },
          { name: 'slow', arguments: { text: 'c' } },
        ],
      },
      { text: 'ok' },
    );
    const result = await turn({ client: client(openai.server.url, bus), hooks: bus, tools: [slow] });
    const tools = result.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(tools).toEqual(['done a', 'done b', 'done c']);
  });

  it('returns tool failures to the model as JSON errors: unknown tool, bad JSON, throwing handler', async () => {
    const { bus } = recordingBus();
    const thrower: ToolDefinition = {
      ...echoTool,
      name: 'thrower',
      schema: { ...echoTool.schema, name: 'thrower' },
      handler: () => {
        throw new Error('kaput');
      },
    };
    openai.server.script(
      {
        toolCalls: [
          { name: 'nope', arguments: {} },
          { name: 'echo', arguments: '{not json' },
          { name: 'thrower', arguments: {} },
        ],
      },
      { text: 'recovered' },
    );
    const result = await turn({ client: client(openai.server.url, bus), hooks: bus, tools: [echoTool, thrower] });
    expect(result.status).toBe('completed');
    const errors = result.messages
      .filter((m) => m.role === 'tool')
      .map((m) => (JSON.parse(m.content) as { error: string }).error);
    expect(errors[0]).toMatch(/Unknown tool "nope".*echo, thrower/);
    expect(errors[1]).toMatch(/Invalid arguments for tool "echo": arguments are not valid JSON/);
    expect(errors[2]).toMatch(/tool thrower failed: kaput/);
  });

  it('pre_tool_call block: the handler does not run and the model sees the message', async () => {
    const { bus } = recordingBus();
    let ran = false;
    const guarded: ToolDefinition = {
      ...echoTool,
      handler: () => {
        ran = true;
        return 'ran';
      },
    };
    bus.register('pre_tool_call', () => ({ decision: 'block', reason: 'not today' }) as const, {
      source: 'test',
      name: 'g',
    });
    openai.server.script({ toolCalls: [{ name: 'echo', arguments: { text: 'x' } }] }, { text: 'blocked, sorry' });
    const result = await turn({ client: client(openai.server.url, bus), hooks: bus, tools: [guarded] });
    expect(ran).toBe(false);
    const toolMsg = result.messages.find((m) => m.role === 'tool');
    expect(JSON.parse(toolMsg?.content ?? '{}')).toEqual({ error: 'not today', blocked: true });
  });

  it('transform_tool_result replaces what the model sees', async () => {
    const { bus } = recordingBus();
    bus.register('transform_tool_result', (p) => p.result.replace('ping', '[REDACTED]'), { source: 'test', name: 't' });
    openai.server.script({ toolCalls: [{ name: 'echo', arguments: { text: 'ping' } }] }, { text: 'ok' });
    await turn({ client: client(openai.server.url, bus), hooks: bus, tools: [echoTool] });
    expect(messagesOf(1).find((m) => m.role === 'tool')?.content).toBe('{"echoed":"[REDACTED]"}');
  });

  it("pre_llm_call context goes into this turn's user message only; system prompt and history untouched", async () => {
    const { bus } = recordingBus();
    bus.register('pre_llm_call', () => ({ context: 'CTX-A' }), { source: 'test', name: 'a' });
    bus.register('pre_llm_call', () => 'CTX-B', { source: 'test', name: 'b' });
    const history: ChatMessage[] = [
      { role: 'user', content: 'earlier' },
      { role: 'assistant', content: 'earlier answer' },
    ];
    const frozen = structuredClone(history);
    openai.server.script({ toolCalls: [{ name: 'echo', arguments: { text: 'x' } }] }, { text: 'second step' });
    const result = await turn({ client: client(openai.server.url, bus), hooks: bus, tools: [echoTool], history });
    const first = messagesOf(0);
    expect(first[0]).toEqual({ role: 'system', content: 'SYSTEM' });
    expect(first.slice(1, 3)).toEqual(frozen);
    expect(first[3]).toEqual({ role: 'user', content: 'hello\n\nCTX-A\n\nCTX-B' });
    // the injected user message stays the same within the turn's later steps
    expect(messagesOf(1)[3]).toEqual({ role: 'user', content: 'hello\n\nCTX-A\n\nCTX-B' });
    expect(history).toEqual(frozen);
    expect(result.messages[0]).toEqual({ role: 'user', content: 'hello' });
  });

  it('fires the session hooks: start on the first turn only, end always, post_llm_call on success', async () => {
    const { bus, calls } = recordingBus();
    recordAll(bus, calls, ['on_session_start', 'pre_llm_call', 'post_llm_call', 'on_session_end']);
    openai.server.script({ text: 'one' }, { text: 'two' });
    const c = client(openai.server.url, bus);
    const first = await turn({ client: c, hooks: bus });
    await turn({ client: c, hooks: bus, history: first.messages, userMessage: 'again' });
    expect(calls.map((x) => x.hook)).toEqual([
      'on_session_start',
      'pre_llm_call',
      'post_llm_call',
      'on_session_end',
      'pre_llm_call',
      'post_llm_call',
      'on_session_end',
    ]);
    expect(calls[1]?.payload).toMatchObject({
      isFirstTurn: true,
      userMessage: 'hello',
      platform: 'cli',
      model: 'test-model',
    });
    expect(calls[4]?.payload).toMatchObject({ isFirstTurn: false, userMessage: 'again' });
    expect(calls[2]?.payload).toMatchObject({ assistantResponse: 'one' });
    expect(calls[3]?.payload).toMatchObject({ completed: true, interrupted: false });
    // post_llm_call sees the history and the turn's messages after it; pre_llm_call the history only
    expect(calls[4]?.payload.conversationHistory).toEqual(first.messages);
    expect(calls[5]?.payload.conversationHistory).toEqual([
      ...first.messages,
      { role: 'user', content: 'again' },
      { role: 'assistant', content: 'two' },
    ]);
  });

  it('is interrupted by its AbortSignal: no post_llm_call, on_session_end says interrupted', async () => {
    const { bus, calls } = recordingBus();
    recordAll(bus, calls, ['post_llm_call', 'on_session_end']);
    openai.server.script({ hang: true });
    const controller = new AbortController();
    void waitFor(() => openai.server.requests.length === 1, { what: 'the model request' }).then(() =>
      controller.abort(),
    );
    const result = await turn({ client: client(openai.server.url, bus), hooks: bus, signal: controller.signal });
    expect(result.status).toBe('interrupted');
    expect(calls.map((c) => c.hook)).toEqual(['on_session_end']);
    expect(calls[0]?.payload).toMatchObject({ completed: false, interrupted: true });
  });

  it('stops at the iteration limit', async () => {
    const { bus } = recordingBus();
    openai.server.script(
      { toolCalls: [{ name: 'echo', arguments: { text: '1' } }] },
      { toolCalls: [{ name: 'echo', arguments: { text: '2' } }] },
      { text: 'never reached' },
    );
    const result = await turn({
      client: client(openai.server.url, bus),
      hooks: bus,
      tools: [echoTool],
      maxIterations: 2,
    });
    expect(result.status).toBe('max_iterations');
    expect(result.error?.code).toBe(ERROR_CODES.MAX_ITERATIONS);
    expect(chatRequests()).toHaveLength(2);
  });

  it('retries a 429 honouring retry-after, firing the api hooks per attempt', async () => {
    const { bus, calls } = recordingBus();
    recordAll(bus, calls, ['pre_api_request', 'post_api_request']);
    const waits: number[] = [];
    const c = client(openai.server.url, bus, 2, waits);
    openai.server.script({ status: 429, headers: { 'retry-after': '7' } }, { text: 'after the wait' });
    const result = await turn({ client: c, hooks: bus });
    expect(result.finalText).toBe('after the wait');
    expect(calls.map((x) => [x.hook, x.payload.attempt, x.payload.statusCode])).toEqual([
      ['pre_api_request', 1, undefined],
      ['post_api_request', 1, 429],
      ['pre_api_request', 2, undefined],
      ['post_api_request', 2, 200],
    ]);
    expect(JSON.stringify(calls)).not.toContain('sk-test-key');
    expect(waits).toEqual([7000]);
  });

  it('invokes only the hooks that have callbacks (no payload built for the others)', async () => {
    const { bus, calls } = recordingBus();
    recordAll(bus, calls, ['post_llm_call']);
    const invoked: string[] = [];
    const invoke = bus.invoke.bind(bus);
    bus.invoke = ((hook, payload) => {
      invoked.push(hook);
      return invoke(hook, payload);
    }) as typeof bus.invoke;
    openai.server.script({ status: 429, headers: { 'retry-after': '0' } }, { text: 'heard' });
    const result = await turn({ client: client(openai.server.url, bus), hooks: bus });
    expect(result.finalText).toBe('heard');
    expect(invoked).toEqual(['post_llm_call']);
    expect(calls[0]?.payload).toMatchObject({ assistantResponse: 'heard' });
  });

  it('gives up on persistent 500 with a clear error', async () => {
    const { bus } = recordingBus();
    openai.server.script({ status: 500 }, { status: 500 }, { status: 500 });
    const result = await turn({ client: client(openai.server.url, bus, 2), hooks: bus });
    expect(result.status).toBe('failed');
    expect(result.error?.code).toBe(ERROR_CODES.MODEL_HTTP);
    expect(result.error?.message).toMatch(/HTTP 500.*gave up after 3 attempts/);
    expect(chatRequests()).toHaveLength(3);
  });

  it('streams deltas to onDelta and the concatenation is the answer', async () => {
    const { bus } = recordingBus();
    const pieces: string[] = [];
    openai.server.script({ text: 'a streamed answer in pieces' });
    const result = await turn({ client: client(openai.server.url, bus), hooks: bus, onDelta: (t) => pieces.push(t) });
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join('')).toBe('a streamed answer in pieces');
    expect(result.finalText).toBe('a streamed answer in pieces');
    expect(chatRequests()[0]?.body).toMatchObject({ stream: true });
  });

  it('streams tool calls whose arguments arrive in pieces', async () => {
    const { bus } = recordingBus();
    openai.server.script({ toolCalls: [{ name: 'echo', arguments: { text: 'streamed args' } }] }, { text: 'fin' });
    const result = await turn({
      client: client(openai.server.url, bus),
      hooks: bus,
      tools: [echoTool],
      onDelta: () => {},
    });
    expect(result.messages.find((m) => m.role === 'tool')?.content).toBe('{"echoed":"streamed args"}');
  });

  it('a throwing hook and a hanging hook are isolated; the turn completes', async () => {
    const { bus } = recordingBus(100);
    bus.register(
      'pre_llm_call',
      () => {
        throw new Error('bad plugin');
      },
      { source: 'test', name: 'thrower' },
    );
    bus.register('post_llm_call', () => new Promise(() => {}), { source: 'test', name: 'hanger' });
    bus.register('pre_tool_call', () => new Promise(() => {}), { source: 'test', name: 'hanger2' });
    openai.server.script({ toolCalls: [{ name: 'echo', arguments: { text: 'x' } }] }, { text: 'survived' });
    const result = await turn({ client: client(openai.server.url, bus), hooks: bus, tools: [echoTool] });
    expect(result.status).toBe('completed');
    expect(result.finalText).toBe('survived');
  });
});
