import { type ChatMessage, silentLogger, type ToolDefinition } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../../../test/helpers/use-fake-openai.js';
import { ToolRegistry, TurnService } from '../src/index.js';
import { client, recordAll, recordingBus } from './helpers.js';

const openai = useFakeOpenAI();

function memoryTranscripts() {
  const rows = new Map<string, ChatMessage[]>();
  return {
    rows,
    list: (id: string) => [...(rows.get(id) ?? [])],
    append: (id: string, messages: readonly ChatMessage[]) => {
      rows.set(id, [...(rows.get(id) ?? []), ...messages]);
      return messages.length;
    },
  };
}

const askingTool: ToolDefinition = {
  name: 'risky',
  toolset: 'test',
  schema: { name: 'risky', description: 'asks for approval', parameters: { type: 'object', properties: {} } },
  handler: async (_args, ctx) => ({
    choice: await ctx.requestApproval({
      command: 'rm -rf x',
      description: 'delete',
      patternKey: 'rm',
      patternKeys: ['rm'],
    }),
  }),
};

function service(bus: ReturnType<typeof recordingBus>['bus'], transcripts = memoryTranscripts()) {
  const tools = new ToolRegistry();
  tools.register(askingTool);
  return {
    transcripts,
    turns: new TurnService({
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
      transcripts,
      redact: (text) => text.replaceAll('s3cret', '[REDACTED]'),
    }),
  };
}

describe('TurnService', () => {
  it("persist 'after': the history is read from the transcripts and the turn appended", async () => {
    const { bus } = recordingBus();
    const { turns, transcripts } = service(bus);
    openai.server.script({ text: 'one' }, { text: 'two' });
    await turns.run({
      sessionId: 's1',
      platform: 'cli',
      userMessage: 'first',
      persist: 'after',
      approval: async () => 'deny',
    });
    const second = await turns.run({
      sessionId: 's1',
      platform: 'cli',
      userMessage: 'second',
      persist: 'after',
      approval: async () => 'deny',
    });
    expect(second.history.map((m) => m.content)).toEqual(['first', 'one']);
    expect(transcripts.rows.get('s1')?.map((m) => m.content)).toEqual(['first', 'one', 'second', 'two']);
    const sent = (openai.server.requests.at(-1)?.body as { messages: ChatMessage[] }).messages;
    expect(sent.map((m) => m.content).slice(1)).toEqual(['first', 'one', 'second']);
  });

  it("persist 'none' with a given history: nothing read or written", async () => {
    const { bus } = recordingBus();
    const { turns, transcripts } = service(bus);
    openai.server.script({ text: 'answer' });
    const result = await turns.run({
      sessionId: 's2',
      platform: 'api',
      userMessage: 'q',
      history: [{ role: 'user', content: 'earlier' }],
      persist: 'none',
      approval: { surface: 'gateway', key: 's2' },
    });
    expect(result.finalText).toBe('answer');
    expect(transcripts.rows.size).toBe(0);
  });

  it('an approval given as surface and key is a gate that fires the approval hooks and denies where nobody is asked', async () => {
    const { bus, calls } = recordingBus();
    recordAll(bus, calls, ['pre_approval_request', 'post_approval_response']);
    const { turns } = service(bus);
    openai.server.script({ toolCalls: [{ name: 'risky', arguments: {} }] }, { text: 'done' });
    const result = await turns.run({
      sessionId: 's3',
      platform: 'telegram',
      userMessage: 'do it',
      history: [],
      persist: 'none',
      approval: { surface: 'gateway', key: 'telegram:1:dm' },
    });
    expect(result.status).toBe('completed');
    expect(calls[0]).toMatchObject({
      hook: 'pre_approval_request',
      payload: { surface: 'gateway', sessionKey: 'telegram:1:dm' },
    });
    const toolMessage = result.messages.find((m) => m.role === 'tool');
    expect(toolMessage?.content).toContain('deny');
    expect(turns.redact('a s3cret')).toBe('a [REDACTED]');
  });
});
