// The context window in a turn: compress-and-retry once on a context-length 400, a throwing engine
// never loses the turn (uncompressed when it fits, HERMES_CONTEXT_TOO_LARGE when not), the system
// prompt stays byte-identical, summaries are stored and the next turn starts from them, /compress.
import { type ChatMessage, type ContextEngine, ERROR_CODES, silentLogger } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { requestProblems } from '../../../../test/context/long-chat.js';
import { errorBodyFor } from '../../../../test/fakes/openai-reply.js';
import { useFakeOpenAI } from '../../../../test/helpers/use-fake-openai.js';
import {
  type ContextSettings,
  compressor,
  type StoredContextSummary,
  SUMMARY_INSTRUCTIONS,
  ToolRegistry,
  TurnService,
} from '../../src/index.js';
import { client, recordingBus } from '../helpers.js';

const openai = useFakeOpenAI();

function history(pairs: number): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (let i = 0; i < pairs; i++) {
    out.push({ role: 'user', content: `question ${i} ${'x'.repeat(400)}` });
    out.push({ role: 'assistant', content: `answer ${i} ${'y'.repeat(400)}` });
  }
  return out;
}

function setup(context: Partial<ContextSettings> = {}) {
  const rows = new Map<string, ChatMessage[]>();
  const saved: StoredContextSummary[] = [];
  const summaries = {
    latest: () => saved[saved.length - 1] ?? null,
    save: (_id: string, s: StoredContextSummary) => void saved.push(s),
  };
  const { bus } = recordingBus();
  const turns = new TurnService({
    client: client(openai.server.url, bus, 0),
    model: 'test-model',
    tools: new ToolRegistry(),
    toolsets: ['*'],
    env: {},
    hooks: bus,
    logger: silentLogger,
    cwd: process.cwd(),
    maxIterations: 5,
    toolTimeoutMs: 5_000,
    transcripts: {
      list: (id) => [...(rows.get(id) ?? [])],
      append: (id, messages) => {
        rows.set(id, [...(rows.get(id) ?? []), ...messages]);
        return messages.length;
      },
    },
    context: {
      engine: compressor,
      contextLength: 100_000,
      threshold: 0.75,
      protectLastN: 4,
      summaries,
      ...context,
    },
  });
  return { turns, rows, saved };
}

const chats = () => openai.server.requests.filter((r) => r.path === '/v1/chat/completions');
const sent = (i: number) => (chats()[i]?.body?.messages ?? []) as ChatMessage[];

describe('the context window', () => {
  it('a 400 context_length_exceeded compresses and retries once; the system prompt is byte-identical', async () => {
    const { turns, rows, saved } = setup();
    rows.set('s', history(10));
    openai.server.script(
      { status: 400, body: errorBodyFor(400, "This model's maximum context length is 8192 tokens.") },
      { text: 'the summary' },
      { text: 'answered' },
    );
    const result = await turns.run({
      sessionId: 's',
      platform: 'cli',
      userMessage: 'go',
      persist: 'after',
      approval: async () => 'deny',
    });
    expect(result.finalText).toBe('answered');
    expect(sent(1)[0]?.content).toBe(SUMMARY_INSTRUCTIONS);
    expect(sent(0)[0]).toEqual(sent(2)[0]); // the system prompt, byte for byte
    expect(sent(2).length).toBeLessThan(sent(0).length);
    expect(sent(2).some((m) => m.content?.includes('the summary'))).toBe(true);
    expect(saved).toEqual([{ headCount: 2, keepFrom: 17, summary: 'the summary' }]);
    // the next turn starts from the summary: system, head (2), summary, the transcript from 17 on (5), the new message
    openai.server.script({ text: 'next' });
    await turns.run({
      sessionId: 's',
      platform: 'cli',
      userMessage: 'again',
      persist: 'after',
      approval: async () => 'deny',
    });
    expect(sent(3).length).toBe(1 + 2 + 1 + 5 + 1);
    expect(rows.get('s')?.length).toBe(20 + 2 + 2); // the transcript keeps everything
  });

  it('async summaries (PostgreSQL): the summary is stored and the next turn starts from it, through Promises', async () => {
    const stored: StoredContextSummary[] = [];
    const { turns, rows } = setup({
      summaries: {
        latest: async () => stored[stored.length - 1] ?? null,
        save: async (_id, summary) => {
          await new Promise((r) => setTimeout(r, 5));
          stored.push(summary);
        },
      },
    });
    rows.set('s', history(10));
    openai.server.script(
      { status: 400, body: errorBodyFor(400, "This model's maximum context length is 8192 tokens.") },
      { text: 'the summary' },
      { text: 'answered' },
      { text: 'next' },
    );
    const turn = (text: string) =>
      turns.run({ sessionId: 's', platform: 'cli', userMessage: text, persist: 'after', approval: async () => 'deny' });
    expect((await turn('go')).finalText).toBe('answered');
    expect(stored).toEqual([{ headCount: 2, keepFrom: 17, summary: 'the summary' }]);
    await turn('again');
    expect(sent(3).length).toBe(1 + 2 + 1 + 5 + 1);
  });

  it('a second context-length refusal fails the turn with the model error (retried once only)', async () => {
    const { turns, rows } = setup();
    rows.set('s', history(10));
    const refuse = {
      status: 400,
      body: { error: { message: 'too long', type: 'invalid_request_error', code: 'context_length_exceeded' } },
    };
    openai.server.script(refuse, { text: 'sum' }, refuse);
    const result = await turns.run({
      sessionId: 's',
      platform: 'cli',
      userMessage: 'go',
      persist: 'after',
      approval: async () => 'deny',
    });
    expect(result.status).toBe('failed');
    expect(chats()).toHaveLength(3);
  });

  it('a throwing engine never loses the turn: the history goes uncompressed when it fits', async () => {
    let calls = 0;
    const broken: ContextEngine = {
      name: 'broken',
      compress: () => {
        calls++;
        return Promise.reject(new Error('boom'));
      },
    };
    // 8 messages of ~110 tokens: over 0.75 × 1200, under 1200
    const small = setup({ engine: broken, contextLength: 1200 });
    small.rows.set('s', history(4));
    openai.server.script({ text: 'fine' });
    const ok = await small.turns.run({
      sessionId: 's',
      platform: 'cli',
      userMessage: 'go',
      persist: 'after',
      approval: async () => 'deny',
    });
    expect(ok.finalText).toBe('fine');
    expect(calls).toBe(1); // the engine was asked, and failed
    expect(sent(0)).toHaveLength(1 + 8 + 1);
    // over the limit by the estimate: sent anyway (the model decides); its context-length 400 is
    // retried once forced, and only then does the turn fail with a clear error
    const tiny = setup({ engine: broken, contextLength: 600 });
    tiny.rows.set('s', history(4));
    const refusal = {
      status: 400,
      body: { error: { message: 'too long', type: 'invalid_request_error', code: 'context_length_exceeded' } },
    };
    openai.server.script(refusal);
    const failed = await tiny.turns.run({
      sessionId: 's',
      platform: 'cli',
      userMessage: 'go',
      persist: 'after',
      approval: async () => 'deny',
    });
    expect(failed.status).toBe('failed');
    expect(failed.error?.code).toBe(ERROR_CODES.CONTEXT_TOO_LARGE);
    expect(failed.error?.message).toMatch(/context engine "broken" failed: boom/);
    expect(chats()).toHaveLength(2); // the first turn's request and the refused one; no blind retry
  });

  it('an engine answering garbage is treated as a failure: the turn goes on uncompressed', async () => {
    const garbage = {
      name: 'garbage',
      compress: async () => ({ keepHead: 'x', summary: 42 }),
    } as unknown as ContextEngine;
    const { turns, rows } = setup({ engine: garbage, contextLength: 1200 });
    rows.set('s', history(4));
    openai.server.script({ text: 'fine' });
    const result = await turns.run({
      sessionId: 's',
      platform: 'cli',
      userMessage: 'go',
      persist: 'after',
      approval: async () => 'deny',
    });
    expect(result.finalText).toBe('fine');
    expect(sent(0)).toHaveLength(1 + 8 + 1);
  });

  it('a plugin engine cutting between a tool call and its result is corrected by the host', async () => {
    const bad: ContextEngine = {
      name: 'bad',
      compress: async () => ({ keepHead: 1, summary: 'S', keepFrom: 3 }),
    };
    const { turns, rows } = setup({ engine: bad });
    rows.set('s', [
      { role: 'user', content: 'a' },
      { role: 'assistant', content: 'b' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 't', arguments: '{}' } }],
      },
      { role: 'tool', content: 'r', tool_call_id: 'c1' },
      { role: 'assistant', content: 'done' },
    ]);
    openai.server.script({ text: 'ok' });
    const report = await turns.compress('s', 'cli');
    expect(report.compressed).toBe(true);
    await turns.run({
      sessionId: 's',
      platform: 'cli',
      userMessage: 'go',
      persist: 'after',
      approval: async () => 'deny',
    });
    const roles = sent(0).map((m) => m.role);
    expect(roles).toEqual(['system', 'user', 'user', 'assistant', 'tool', 'assistant', 'user']);
  });

  it('a plugin engine keeping too much: the host cuts down to the last two exchanges, not into them', async () => {
    // keeps everything after the head: over the budget (75% of 4,000) the host cuts, but the last two
    // exchanges (~3,300 tokens with the new message) stay whole, as they fit the window
    const greedy: ContextEngine = {
      name: 'greedy',
      compress: async () => ({ keepHead: 0, summary: 'S', keepFrom: 0 }),
    };
    const { turns, rows } = setup({ engine: greedy, contextLength: 4_000 });
    const long = (word: string) => `${word} ${'z'.repeat(4_400)}`;
    rows.set('s', [
      { role: 'user', content: long('q1') },
      { role: 'assistant', content: long('a1') },
      { role: 'user', content: long('q2') },
      { role: 'assistant', content: long('a2') },
    ]);
    openai.server.script({ text: 'ok' });
    await turns.run({
      sessionId: 's',
      platform: 'cli',
      userMessage: long('q3'),
      persist: 'after',
      approval: async () => 'deny',
    });
    const contents = sent(0).map((m) => (typeof m.content === 'string' ? m.content.slice(0, 2) : ''));
    expect(contents.slice(1)).toEqual(['[S', 'q2', 'a2', 'q3']);
  });

  it('a 5,000-message session with a stored summary sends what a short one would: head, summary, the rest', async () => {
    const { turns, rows, saved } = setup();
    rows.set('s', history(2_500));
    saved.push({ headCount: 2, keepFrom: 4_990, summary: 'long ago' });
    openai.server.script({ text: 'ok' });
    await turns.run({
      sessionId: 's',
      platform: 'cli',
      userMessage: 'go',
      persist: 'after',
      approval: async () => 'deny',
    });
    expect(sent(0)).toHaveLength(1 + 2 + 1 + 10 + 1);
    expect(sent(0)[3]?.content).toContain('long ago');
    expect(rows.get('s')).toHaveLength(5_002);
  });

  it('inside a long tool loop: compressed between steps, every request under the limit, tool results with their calls', async () => {
    const { bus } = recordingBus();
    const tools = new ToolRegistry();
    tools.register({
      name: 'big',
      toolset: 'test',
      schema: { name: 'big', description: 'a large result', parameters: { type: 'object', properties: {} } },
      handler: () => ({ data: 'z'.repeat(1200) }),
    });
    const turns = new TurnService({
      client: client(openai.server.url, bus, 0),
      model: 'test-model',
      tools,
      toolsets: ['*'],
      env: {},
      hooks: bus,
      logger: silentLogger,
      cwd: process.cwd(),
      maxIterations: 20,
      toolTimeoutMs: 5_000,
      context: { engine: compressor, contextLength: 2500, threshold: 0.75, protectLastN: 4 },
    });
    let steps = 0;
    openai.server.respond((request) => {
      const messages = (request.body?.messages ?? []) as ChatMessage[];
      if (messages[0]?.content === SUMMARY_INSTRUCTIONS) return { text: 'tools ran' };
      steps++;
      return steps <= 12 ? { toolCalls: [{ name: 'big', arguments: {} }] } : { text: 'done' };
    });
    const result = await turns.run({
      sessionId: 's',
      platform: 'cli',
      userMessage: 'work',
      history: [],
      persist: 'none',
      approval: async () => 'deny',
    });
    expect(result.finalText).toBe('done');
    expect(result.messages).toHaveLength(1 + 12 * 2 + 1); // the turn's own messages are all kept for the transcript
    const problems = chats().flatMap((r, i) => requestProblems(r, 2500, i));
    expect(problems).toEqual([]);
    expect(chats().some((r) => (r.body?.messages as ChatMessage[])[0]?.content === SUMMARY_INSTRUCTIONS)).toBe(true);
  });

  it('auxiliary.compression.model writes the summary; the chat keeps its model', async () => {
    const { turns, rows } = setup({ summaryModel: 'cheap-model' });
    rows.set('s', history(10));
    openai.server.script({ text: 'S' });
    const report = await turns.compress('s', 'cli');
    expect(report).toMatchObject({ compressed: true, messagesBefore: 20, messagesAfter: 7 });
    expect(chats()[0]?.body).toMatchObject({ model: 'cheap-model' });
    openai.server.script({ text: 'ok' });
    await turns.run({
      sessionId: 's',
      platform: 'cli',
      userMessage: 'go',
      persist: 'after',
      approval: async () => 'deny',
    });
    expect(chats()[1]?.body).toMatchObject({ model: 'test-model' });
  });

  it('/compress on a short history says there was nothing to compress', async () => {
    const { turns, rows } = setup();
    rows.set('s', history(1));
    const report = await turns.compress('s', 'cli');
    expect(report).toMatchObject({ compressed: false, messagesBefore: 2, reason: 'there is nothing to compress' });
  });
});
