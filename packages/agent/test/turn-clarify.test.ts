// The turn service offers clarify only to a turn whose caller can ask a user (TurnRequest.clarify),
// and the tool's call reaches that caller's prompt with the turn's question; elsewhere (cron, -z,
// the API) the model is never shown the tool.
import { type ClarifyQuestion, silentLogger } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../../../test/helpers/use-fake-openai.js';
import { createClarifyTool, ToolRegistry, TurnService } from '../src/index.js';
import { client, recordingBus } from './helpers.js';

const openai = useFakeOpenAI();

function service(): TurnService {
  const { bus } = recordingBus();
  const tools = new ToolRegistry();
  tools.register(createClarifyTool());
  return new TurnService({
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
  });
}

const offered = (i: number): string[] =>
  ((openai.server.requests[i]?.body as { tools?: { function: { name: string } }[] }).tools ?? []).map(
    (t) => t.function.name,
  );

const base = { sessionId: 's1', platform: 'telegram', history: [], persist: 'none' as const };

describe('clarify in a turn', () => {
  it('is offered with a prompt, and its call is answered by that prompt', async () => {
    const asked: ClarifyQuestion[] = [];
    openai.server.script(
      { toolCalls: [{ name: 'clarify', arguments: { question: 'Which?', choices: ['a', 'b'] } }] },
      { text: 'ok' },
    );
    const result = await service().run({
      ...base,
      userMessage: 'do it',
      approval: async () => 'deny',
      clarify: async (question) => {
        asked.push(question);
        return { kind: 'answered', text: 'b', choice: 1, via: 'button' };
      },
    });
    expect(offered(0)).toEqual(['clarify']);
    expect(asked).toEqual([{ question: 'Which?', choices: ['a', 'b'] }]);
    const tool = result.messages.find((m) => m.role === 'tool');
    expect(JSON.parse(String(tool?.content))).toEqual({ answer: 'b', choice: 1, via: 'button' });
  });

  it('is not offered to a turn nobody can answer', async () => {
    openai.server.script({ text: 'fine' });
    const result = await service().run({ ...base, userMessage: 'hi', approval: async () => 'deny' });
    expect(result.status).toBe('completed');
    expect(offered(0)).toEqual([]);
  });
});
