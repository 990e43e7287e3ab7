// context.hard_message_limit (the seeds' compression.hygiene_hard_message_limit): a request holding
// more messages than the limit is compressed although its tokens fit; 0 is no limit; a turn
// compresses for the count once (a tail longer than the limit is not summarized at every step).
import { type ChatMessage, silentLogger } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../../../../test/helpers/use-fake-openai.js';
import {
  type ContextSettings,
  compressor,
  type StoredContextSummary,
  SUMMARY_INSTRUCTIONS,
  ToolRegistry,
  TurnService,
} from '../../src/index.js';
import { client, echoTool, recordingBus } from '../helpers.js';

const openai = useFakeOpenAI();

/** `pairs` short exchanges: a few tokens each, far under any threshold */
function history(pairs: number): ChatMessage[] {
  return Array.from({ length: pairs }, (_, i): ChatMessage[] => [
    { role: 'user', content: `question ${i}` },
    { role: 'assistant', content: `answer ${i}` },
  ]).flat();
}

function setup(context: Partial<ContextSettings>) {
  const rows = new Map<string, ChatMessage[]>();
  const saved: StoredContextSummary[] = [];
  const tools = new ToolRegistry();
  tools.register(echoTool);
  const { bus } = recordingBus();
  const turns = new TurnService({
    client: client(openai.server.url, bus, 0),
    model: 'test-model',
    tools,
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
      summaries: { latest: () => saved.at(-1) ?? null, save: (_id, s) => void saved.push(s) },
      ...context,
    },
  });
  const run = (text: string) =>
    turns.run({ sessionId: 's', platform: 'cli', userMessage: text, persist: 'after', approval: async () => 'deny' });
  return { run, rows, saved };
}

const chats = () => openai.server.requests.filter((r) => r.path === '/v1/chat/completions');
const sent = (i: number) => (chats()[i]?.body?.messages ?? []) as ChatMessage[];
const isSummaryRequest = (i: number) => sent(i)[0]?.content === SUMMARY_INSTRUCTIONS;

describe('context.hard_message_limit', () => {
  it('a request over the message count is compressed though its tokens fit; the next turn starts from the summary', async () => {
    const { run, rows, saved } = setup({ hardMessageLimit: 12 });
    rows.set('s', history(10)); // 20 messages + the new one: 21 > 12, a few hundred tokens of 75,000
    openai.server.script({ text: 'the summary' }, { text: 'answered' });
    expect((await run('go')).finalText).toBe('answered');
    expect(isSummaryRequest(0)).toBe(true);
    // system, the first exchange (2), the summary, the last protect_last_n (4) messages: 17..20
    expect(sent(1)).toHaveLength(1 + 2 + 1 + 4);
    expect(sent(1)[3]?.content).toContain('the summary');
    expect(saved).toEqual([{ headCount: 2, keepFrom: 17, summary: 'the summary' }]);
    // the next turn: head, summary, the 5 kept transcript messages and the new one: 9 messages, under 12
    openai.server.script({ text: 'next' });
    await run('again');
    expect(isSummaryRequest(2)).toBe(false);
    expect(sent(2)).toHaveLength(1 + 2 + 1 + 5 + 1);
    expect(rows.get('s')).toHaveLength(20 + 2 + 2); // the transcript keeps every message
  });

  it('0 (the default) is no limit: the same history goes whole', async () => {
    const { run, rows } = setup({ hardMessageLimit: 0 });
    rows.set('s', history(10));
    openai.server.script({ text: 'answered' });
    await run('go');
    expect(chats()).toHaveLength(1);
    expect(sent(0)).toHaveLength(1 + 20 + 1);
  });

  it('a turn compresses for the count once: its tool steps past the limit do not summarize again', async () => {
    // limit 3: after the summary the request still holds 6 (head 2, summary, the last two exchanges whole)
    const { run, rows } = setup({ hardMessageLimit: 3, protectLastN: 0 });
    rows.set('s', history(3));
    openai.server.script(
      { text: 'the summary' },
      { toolCalls: [{ name: 'echo', arguments: { text: 'a' } }] },
      { toolCalls: [{ name: 'echo', arguments: { text: 'b' } }] },
      { text: 'done' },
    );
    expect((await run('go')).finalText).toBe('done');
    expect(chats().map((_, i) => isSummaryRequest(i))).toEqual([true, false, false, false]);
    expect(sent(1)).toHaveLength(1 + 2 + 1 + 3);
    expect(sent(3)).toHaveLength(1 + 2 + 1 + 3 + 4); // two tool steps later, no second summary
  });
});
