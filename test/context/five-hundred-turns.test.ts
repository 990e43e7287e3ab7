// Acceptance (issue 19): a chat of 500 turns with model.context_length 4000, through the turn service,
// the real state.db and the fake OpenAI server. Every request the fake received is under the limit
// (by the agent's estimate and by a conservative JSON-characters bound), no tool message is sent
// without its assistant call, the fact of turn 1 is still answered at turn 500 through the summary,
// and state.db keeps every message of the transcript.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compressor, ModelClient, ToolRegistry, TurnService } from '@hermes/agent';
import { HookBus } from '@hermes/plugins';
import { silentLogger } from '@hermes/protocol';
import { openStore, type Store } from '@hermes/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { LATER_FACT, QUESTION, requestProblems, scriptedModel, userText } from './long-chat.js';

const CONTEXT_LENGTH = 4000;
const TURNS = 500;
const openai = useFakeOpenAI();
let dir = '';
let store: Store;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'hermes-long-chat-'));
  store = openStore(join(dir, 'state.db'));
});
afterAll(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

function service(): TurnService {
  const hooks = new HookBus();
  const tools = new ToolRegistry();
  tools.register({
    name: 'echo',
    toolset: 'test',
    schema: {
      name: 'echo',
      description: 'Echo the text back',
      parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    },
    handler: (args) => ({ echoed: `${String(args.text)} ${'tool output '.repeat(20)}` }),
  });
  return new TurnService({
    client: new ModelClient({ baseUrl: openai.server.url, apiKey: 'sk-test', timeoutMs: 5_000, maxRetries: 0, hooks }),
    model: 'fake-model',
    tools,
    toolsets: ['*'],
    env: {},
    hooks,
    logger: silentLogger,
    cwd: process.cwd(),
    maxIterations: 10,
    toolTimeoutMs: 5_000,
    transcripts: store.transcripts,
    context: {
      engine: compressor,
      contextLength: CONTEXT_LENGTH,
      threshold: 0.75,
      protectLastN: 20,
      summaries: store.contextSummaries,
    },
  });
}

describe('a chat of 500 turns with model.context_length 4000', () => {
  it('stays under the limit, keeps tool calls with their results and remembers turn 1 at turn 500', async () => {
    openai.server.respond(scriptedModel);
    const turns = service();
    store.sessions.create({ id: 'long', key: 'cli:long', platform: 'cli' });
    let stored = 0;
    let last = '';
    for (let n = 1; n <= TURNS; n++) {
      const text = n === TURNS ? QUESTION : userText(n);
      const result = await turns.run({
        sessionId: 'long',
        platform: 'cli',
        userMessage: text,
        persist: 'after',
        approval: async () => 'deny',
      });
      expect(result.status, `turn ${n}: ${result.error?.message}`).toBe('completed');
      stored += result.messages.length;
      last = result.finalText ?? '';
    }
    const requests = openai.server.requests.filter((r) => r.path === '/v1/chat/completions');
    const problems = requests.flatMap((r, i) => requestProblems(r, CONTEXT_LENGTH, i));
    expect(problems.slice(0, 10)).toEqual([]);
    // some turns used tools, and compression happened many times
    expect(requests.some((r) => JSON.stringify(r.body?.messages).includes('"role":"tool"'))).toBe(true);
    expect(store.contextSummaries.count('long')).toBeGreaterThan(10);
    // turn 500 was answered from the summary: the fact was in what the model was sent, not in its last messages
    expect(last).toBe('Your cat is called Tabby. Your dog is called Rex.');
    const final = requests[requests.length - 1]?.body?.messages as { content: string | null }[];
    const withRex = final.filter((m) => m.content?.includes('Rex'));
    expect(withRex).toHaveLength(1);
    expect(withRex[0]?.content).toMatch(/^\[Summary of the earlier conversation/);
    expect(withRex[0]?.content).toContain(LATER_FACT);
    expect(final[1]?.content).toBe(userText(1)); // the first exchange is kept as it was
    // the full transcript is never shortened
    expect(store.transcripts.count('long')).toBe(stored);
    expect(store.transcripts.list('long')[0]).toEqual({ role: 'user', content: userText(1) });
  }, 120_000);
});
