// model.fallback and the per-session model through TurnService: a primary that still fails after its
// retries (5xx) is answered by the fallback with one note per turn (never stored in the transcript);
// a 400 or an interrupt never falls back; a session's /model choice is used by its turns only.
import { type ChatMessage, type Logger, silentLogger } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../../../../test/helpers/use-fake-openai.js';
import {
  FallbackCaller,
  fallbackNote,
  ModelClient,
  ModelProviders,
  type SessionModelStore,
  SessionModels,
  shouldFallBack,
  ToolRegistry,
  TurnService,
} from '../../src/index.js';
import { echoTool, recordingBus } from '../helpers.js';

const primary = useFakeOpenAI();
const other = useFakeOpenAI();
const chats = (server: typeof primary) => server.server.requests.filter((r) => r.path.endsWith('/chat/completions'));

function memoryStore(): SessionModelStore & { rows: Map<string, { provider: string; model: string }> } {
  const rows = new Map<string, { provider: string; model: string }>();
  return {
    rows,
    get: (id) => rows.get(id),
    set: (id, provider, model) => void rows.set(id, { provider, model }),
    clear: (id) => rows.delete(id),
  };
}

function setup(fallback?: string) {
  const { bus } = recordingBus();
  const providers = new ModelProviders({
    registered: () => [
      {
        plugin: 'test/other',
        profile: {
          name: 'other',
          baseUrl: other.server.url,
          apiKeyEnv: 'OTHER_KEY',
          defaultModel: 'model-b',
          contextLength: 8192,
          headers: { 'X-Title': 'Hermes test' },
        },
      },
    ],
    config: {
      provider: 'custom',
      model: 'model-a',
      default: 'model-a',
      base_url: primary.server.url,
      api_key: '',
      fallback,
    },
    env: { OTHER_KEY: 'sk-other-0123456789' },
    makeClient: (p) =>
      new ModelClient({
        baseUrl: p.baseUrl,
        apiKey: p.apiKey,
        timeoutMs: 5_000,
        maxRetries: 1,
        hooks: bus,
        ...(p.headers ? { headers: p.headers } : {}),
        sleep: async (_ms, signal) => !signal?.aborted,
      }),
  });
  const warnings: string[] = [];
  const logger: Logger = {
    ...silentLogger,
    warn: (_o: unknown, msg?: string) => void warnings.push(String(msg)),
  } as Logger;
  const store = memoryStore();
  const models = new SessionModels(providers, store, logger);
  const rows = new Map<string, ChatMessage[]>();
  const tools = new ToolRegistry();
  tools.register(echoTool);
  const service = new TurnService({
    client: providers.client('custom'),
    model: 'model-a',
    tools,
    toolsets: ['*'],
    env: {},
    hooks: bus,
    logger,
    cwd: process.cwd(),
    maxIterations: 5,
    toolTimeoutMs: 5000,
    models,
    transcripts: {
      list: (id) => [...(rows.get(id) ?? [])],
      append: (id, messages) => {
        rows.set(id, [...(rows.get(id) ?? []), ...messages]);
        return messages.length;
      },
    },
  });
  const run = (sessionId: string, text: string) =>
    service.run({ sessionId, platform: 'telegram', userMessage: text, persist: 'after', approval: async () => 'deny' });
  return { models, store, service, rows, run, warnings };
}

describe('model.fallback', () => {
  it('a primary that still returns 500 after its retry is answered by the fallback, and the answer says so once', async () => {
    const { run, rows, warnings } = setup('other:model-b');
    primary.server.respond(() => ({ status: 500 }));
    // a tool step, then the answer: both from the fallback, the note once
    other.server.script({ toolCalls: [{ name: 'echo', arguments: { text: 'x' } }] }, { text: 'from B' });
    const result = await run('s1', 'hello');
    expect(result.status).toBe('completed');
    expect(result.finalText).toBe(`from B\n\n${fallbackNote({ provider: 'other', model: 'model-b' })}`);
    expect(result.finalText).toBe('from B\n\n(answered by other:model-b: the primary model failed)');
    expect(chats(primary)).toHaveLength(2); // the first try and its one retry; the tool step went straight to B
    expect(chats(other).map((r) => r.body?.model)).toEqual(['model-b', 'model-b']);
    expect(chats(other)[0]?.headers.authorization).toBe('Bearer sk-other-0123456789');
    expect(chats(other)[0]?.headers['x-title']).toBe('Hermes test'); // the profile's headers
    // the transcript keeps the model's own words: the note is for the reader
    expect(rows.get('s1')?.at(-1)).toEqual({ role: 'assistant', content: 'from B' });
    expect(warnings.join('\n')).toContain(
      'the primary model custom:model-a failed; model.fallback other:model-b answers',
    );
  });

  it('the next turn tries the primary again', async () => {
    const { run } = setup('other:model-b');
    primary.server.script({ status: 503 }, { status: 503 }, { text: 'A is back' });
    other.server.script({ text: 'from B' });
    expect((await run('s1', 'one')).finalText).toContain('(answered by other:model-b');
    expect((await run('s1', 'two')).finalText).toBe('A is back');
  });

  it('a 400 (the request itself) never falls back, nor does a turn without model.fallback', async () => {
    const { run } = setup('other:model-b');
    primary.server.script({ status: 400 });
    const result = await run('s1', 'bad');
    expect(result.status).toBe('failed');
    expect(result.error?.message).toContain('HTTP 400');
    expect(chats(other)).toHaveLength(0);
    const plain = setup();
    primary.server.respond(() => ({ status: 500 }));
    expect((await plain.run('s2', 'x')).status).toBe('failed');
    expect(chats(other)).toHaveLength(0);
  });

  it('shouldFallBack: retryable failures and their wrappers yes; interrupts and plain errors no', async () => {
    const { InterruptedError } = await import('../../src/index.js');
    const { HermesError } = await import('@hermes/protocol');
    const inner = new HermesError('HERMES_MODEL_HTTP', 'HTTP 502', { retryable: true });
    expect(shouldFallBack(new HermesError('HERMES_MODEL_HTTP', 'gave up after 4 attempts', { cause: inner }))).toBe(
      true,
    );
    expect(shouldFallBack(new HermesError('HERMES_MODEL_HTTP', 'HTTP 400'))).toBe(false);
    expect(shouldFallBack(new InterruptedError())).toBe(false);
    expect(shouldFallBack(new Error('bug'))).toBe(false);
  });

  it('a streamed answer the primary already showed part of is not continued by the fallback', async () => {
    let calls = 0;
    const failing = {
      complete: async (req: { onDelta?: (t: string) => void }) => {
        calls++;
        req.onDelta?.('partial ');
        const { HermesError } = await import('@hermes/protocol');
        throw new HermesError('HERMES_MODEL_UNREACHABLE', 'connection reset', { retryable: true });
      },
    };
    let fallbackCalls = 0;
    const fb = {
      complete: async () => {
        fallbackCalls++;
        return { content: 'B', toolCalls: [], finishReason: 'stop', usage: null };
      },
    };
    const caller = new FallbackCaller(
      { choice: { provider: 'custom', model: 'a' }, client: failing as never },
      { choice: { provider: 'other', model: 'b' }, client: fb as never },
      silentLogger,
    );
    await expect(
      caller.complete({ body: { model: 'a', messages: [] }, sessionId: 's', onDelta: () => {} }),
    ).rejects.toThrow('connection reset');
    expect([calls, fallbackCalls, caller.note()]).toEqual([1, 0, null]);
  });
});

describe('a chain of fallbacks', () => {
  it('tries each in order; later steps go to the one that answered; the note names the ones that failed', async () => {
    const { HermesError } = await import('@hermes/protocol');
    const calls: string[] = [];
    const routed = (provider: string, model: string, answers: boolean) => ({
      choice: { provider, model },
      client: {
        complete: async (req: { body: { model: string } }) => {
          calls.push(`${provider}:${req.body.model}`);
          if (!answers) throw new HermesError('HERMES_MODEL_HTTP', 'HTTP 500', { retryable: true });
          return { content: 'ok', toolCalls: [], finishReason: 'stop', usage: null };
        },
      } as never,
    });
    const caller = new FallbackCaller(
      routed('custom', 'a', false),
      [routed('custom', 'a', false), routed('x', 'b', false), routed('y', 'c', false), routed('z', 'd', true)],
      silentLogger,
    );
    const request = { body: { model: 'a', messages: [] }, sessionId: 's' };
    await caller.complete(request);
    await caller.complete(request);
    // the primary itself in the chain is skipped; the second step goes straight to z:d
    expect(calls).toEqual(['custom:a', 'x:b', 'y:c', 'z:d', 'z:d']);
    expect(caller.note()).toBe('(answered by z:d: the primary model and fallbacks x:b, y:c failed)');
    expect(fallbackNote({ provider: 'y', model: 'c' }, [{ provider: 'x', model: 'b' }])).toBe(
      '(answered by y:c: the primary model and fallback x:b failed)',
    );
  });
});

describe('per-session model', () => {
  it("a session's /model choice is used by its turns; another session keeps the default", async () => {
    const { run, models } = setup();
    primary.server.respond(() => ({ text: 'from A' }));
    other.server.respond(() => ({ text: 'from B' }));
    const parsed = await models.parse('other:model-b', 's1');
    expect(parsed.ok).toBe(true);
    if (parsed.ok) await models.choose('s1', parsed.choice);
    expect((await run('s1', 'hi')).finalText).toBe('from B');
    expect((await run('s2', 'hi')).finalText).toBe('from A');
    expect(chats(other).map((r) => r.body?.model)).toEqual(['model-b']);
    expect(chats(primary).map((r) => r.body?.model)).toEqual(['model-a']);
    expect(await models.contextLength('s1')).toBe(8192); // the session's provider's profile
    expect(await models.contextLength('s2')).toBeUndefined(); // custom has none: model.context_length's own default
    // a bare model stays on the session's provider; choosing the default clears the row
    const bare = await models.parse('model-c', 's1');
    expect(bare.ok && bare.choice).toEqual({ provider: 'other', model: 'model-c' });
    await models.choose('s1', { provider: 'custom', model: 'model-a' });
    expect(await models.current('s1')).toEqual({ provider: 'custom', model: 'model-a' });
  });

  it('a stored choice whose provider is gone uses the default, with a warning', async () => {
    const { models, store, warnings } = setup();
    store.set('s9', 'vanished', 'x');
    expect(await models.current('s9')).toEqual({ provider: 'custom', model: 'model-a' });
    expect(warnings.join('\n')).toContain('model provider "vanished", which is no longer loaded');
  });
  it('an async choices store (PostgreSQL): choices are read and stored through Promises', async () => {
    const { models: base } = setup();
    const rows = new Map<string, { provider: string; model: string }>();
    const store: SessionModelStore = {
      get: async (id) => rows.get(id),
      set: async (id, provider, model) => void rows.set(id, { provider, model }),
      clear: async (id) => rows.delete(id),
    };
    const models = new SessionModels(base.providers, store, silentLogger);
    await models.choose('s1', { provider: 'other', model: 'model-b' });
    expect(rows.get('s1')).toEqual({ provider: 'other', model: 'model-b' });
    expect(await models.current('s1')).toEqual({ provider: 'other', model: 'model-b' });
    expect((await models.forTurn('s1')).model).toBe('model-b');
    expect(await models.contextLength('s1')).toBe(8192);
    await models.choose('s1', { provider: 'custom', model: 'model-a' }); // the primary: the row is cleared
    expect(rows.has('s1')).toBe(false);
  });
});
