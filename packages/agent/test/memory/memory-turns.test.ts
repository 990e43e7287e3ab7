// Memory around a turn (TurnService + MemoryManager): the block goes into the system prompt and
// stays byte-identical for the session (also for a new manager reading the stored snapshot);
// prefetch reaches this request only; sync gets the exchange; a throwing or hanging provider never
// loses the turn; an unknown provider names the registered ones; excluded tools are not offered.
import type { ChatMessage, Logger, MemoryProvider } from '@hermes/protocol';
import { silentLogger } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../../../../test/helpers/use-fake-openai.js';
import {
  createSessionSearchTool,
  MemoryManager,
  type MemorySnapshots,
  selectMemoryProvider,
  ToolRegistry,
  TurnService,
} from '../../src/index.js';
import { client, recordingBus } from '../helpers.js';

const openai = useFakeOpenAI();

function memoryTranscripts() {
  const rows = new Map<string, ChatMessage[]>();
  return {
    list: (id: string) => [...(rows.get(id) ?? [])],
    append: (id: string, messages: readonly ChatMessage[]) => {
      rows.set(id, [...(rows.get(id) ?? []), ...messages]);
      return messages.length;
    },
  };
}

function snapshots(): MemorySnapshots & { rows: Map<string, string> } {
  const rows = new Map<string, string>();
  return {
    rows,
    get: (id) => rows.get(id),
    put: (id, _provider, block) => {
      if (rows.has(id)) return false;
      rows.set(id, block);
      return true;
    },
  };
}

function errorsLogger(errors: string[]): Logger {
  const logger: Logger = {
    ...silentLogger,
    error: (_obj: unknown, message?: string) => {
      errors.push(String(message));
    },
    child: () => logger,
  } as Logger;
  return logger;
}

function service(manager: MemoryManager, tools = new ToolRegistry(), excludeTools?: string[]) {
  const { bus } = recordingBus();
  for (const tool of manager.tools()) tools.register(tool);
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
    transcripts: memoryTranscripts(),
    memory: manager,
    ...(excludeTools ? { excludeTools } : {}),
  });
}

const run = (turns: TurnService, text: string, sessionId = 's1') =>
  turns.run({ sessionId, platform: 'cli', userMessage: text, persist: 'after', approval: async () => 'deny' });

const sentMessages = (i: number) => (openai.server.requests[i]?.body as { messages: ChatMessage[] }).messages;

describe('memory around a turn', () => {
  it('async snapshots (PostgreSQL): the stored block is read and a new one stored through Promises', async () => {
    const rows = new Map<string, string>([['s1', '# Memory\nstored earlier']]);
    let asked = 0;
    const provider: MemoryProvider = {
      name: 'notes',
      systemPromptBlock: () => {
        asked++;
        return '# Memory\nasked now';
      },
    };
    const manager = new MemoryManager({
      provider,
      snapshots: {
        get: async (id) => rows.get(id),
        put: async (id, _provider, block) => {
          rows.set(id, block);
          return true;
        },
      },
      logger: silentLogger,
    });
    expect(await manager.block({ sessionId: 's1', platform: 'cli' })).toBe('# Memory\nstored earlier');
    expect(asked).toBe(0);
    expect(await manager.block({ sessionId: 's2', platform: 'cli' })).toBe('# Memory\nasked now');
    expect(rows.get('s2')).toBe('# Memory\nasked now');
  });

  it('the block is asked once per session, stored, and the system prompt stays byte-identical (also after a restart)', async () => {
    let notes = 'likes tea';
    let asked = 0;
    const provider: MemoryProvider = {
      name: 'notes',
      systemPromptBlock: () => {
        asked++;
        return `# Memory\n${notes}`;
      },
    };
    const store = snapshots();
    const first = service(new MemoryManager({ provider, snapshots: store, logger: silentLogger }));
    openai.server.script({ text: 'one' }, { text: 'two' }, { text: 'three' });
    await run(first, 'hi');
    notes = 'likes coffee now';
    await run(first, 'again');
    // a new process: a new manager reads the stored snapshot
    const restarted = service(new MemoryManager({ provider, snapshots: store, logger: silentLogger }));
    await run(restarted, 'after restart');
    const systems = [0, 1, 2].map((i) => sentMessages(i)[0]?.content);
    expect(systems[0]).toContain('# Memory\nlikes tea');
    expect(systems[1]).toBe(systems[0]);
    expect(systems[2]).toBe(systems[0]);
    expect(asked).toBe(1);
    // a new session sees the new notes
    openai.server.script({ text: 'fresh' });
    await run(restarted, 'new session', 's2');
    expect(sentMessages(3)[0]?.content).toContain('likes coffee now');
  });

  it('prefetch is added to this request only; sync and onSessionEnd get the exchange', async () => {
    const synced: unknown[] = [];
    const ended: unknown[] = [];
    const provider: MemoryProvider = {
      name: 'notes',
      systemPromptBlock: () => '',
      prefetch: (turn) => `Recalled for "${turn.userMessage}"`,
      sync: (turn) => {
        synced.push(turn);
      },
      onSessionEnd: (session) => {
        ended.push(session);
      },
    };
    const turns = service(new MemoryManager({ provider, logger: silentLogger }));
    openai.server.script({ text: 'answer one' }, { text: 'answer two' });
    const first = await run(turns, 'question one');
    await run(turns, 'question two');
    expect(sentMessages(0).at(-1)?.content).toBe('question one\n\nRecalled for "question one"');
    expect(sentMessages(0)[0]?.content).not.toContain('Recalled');
    // the stored turn and the next request's history carry the plain message
    expect(first.messages[0]?.content).toBe('question one');
    expect(sentMessages(1)[1]?.content).toBe('question one');
    expect(synced).toEqual([
      { sessionId: 's1', platform: 'cli', userMessage: 'question one', assistantResponse: 'answer one' },
      { sessionId: 's1', platform: 'cli', userMessage: 'question two', assistantResponse: 'answer two' },
    ]);
    expect(ended).toEqual([
      { sessionId: 's1', platform: 'cli', completed: true, interrupted: false },
      { sessionId: 's1', platform: 'cli', completed: true, interrupted: false },
    ]);
  });

  it('a provider that throws or hangs in every method never loses the turn (logged)', async () => {
    const errors: string[] = [];
    const provider: MemoryProvider = {
      name: 'broken',
      systemPromptBlock: () => {
        throw new Error('block boom');
      },
      prefetch: () => new Promise(() => {}),
      sync: async () => {
        throw new Error('sync boom');
      },
      onSessionEnd: () => {
        throw new Error('end boom');
      },
    };
    const store = snapshots();
    const turns = service(
      new MemoryManager({ provider, snapshots: store, logger: errorsLogger(errors), timeoutMs: 50 }),
    );
    openai.server.script({ text: 'still answered' });
    const result = await run(turns, 'hello');
    expect(result.status).toBe('completed');
    expect(result.finalText).toBe('still answered');
    expect(errors).toEqual([
      'memory provider "broken" failed in systemPromptBlock; the turn goes on without it',
      'memory provider "broken" failed in prefetch; the turn goes on without it',
      'memory provider "broken" failed in sync; the turn goes on without it',
      'memory provider "broken" failed in onSessionEnd; the turn goes on without it',
    ]);
    // a failed block is not stored: the next turn asks again
    expect(store.rows.size).toBe(0);
  });

  it('an unknown memory.provider names the registered ones; its memory tool answers that', async () => {
    const registered = new Map([['notes', { provider: { name: 'notes', systemPromptBlock: () => '' } }]]);
    const choice = selectMemoryProvider('honcho', registered, () => ({ name: 'builtin', systemPromptBlock: () => '' }));
    expect(choice.problem).toBe(
      'memory.provider "honcho" is not registered (registered: builtin, notes); ' +
        'install or enable a plugin in plugins/memory/honcho/, or set memory.provider to one of those',
    );
    expect(
      selectMemoryProvider('notes', registered, () => ({ name: 'builtin', systemPromptBlock: () => '' })).provider
        ?.name,
    ).toBe('notes');
    const manager = new MemoryManager({ provider: null, problem: choice.problem ?? '', logger: silentLogger });
    const [tool] = manager.tools();
    expect(await tool?.handler({}, {} as never)).toEqual({ success: false, error: choice.problem });
    openai.server.script({ text: 'ok' });
    expect((await run(service(manager), 'hi')).status).toBe('completed');
  });

  it("the provider's tools join the memory toolset; excludeTools leaves the writing ones out", async () => {
    const provider: MemoryProvider = {
      name: 'notes',
      systemPromptBlock: () => '',
      tools: [
        {
          name: 'note_add',
          schema: { name: 'note_add', description: 'add', parameters: { type: 'object' } },
          handler: () => 'ok',
        },
        {
          name: 'note_read',
          writes: false,
          schema: { name: 'note_read', description: 'read', parameters: { type: 'object' } },
          handler: () => 'ok',
        },
      ],
    };
    const manager = new MemoryManager({ provider, logger: silentLogger });
    expect(manager.tools().map((t) => [t.name, t.toolset])).toEqual([
      ['note_add', 'memory'],
      ['note_read', 'memory'],
    ]);
    expect(manager.writeToolNames()).toEqual(['note_add']);
    const tools = new ToolRegistry();
    tools.register(createSessionSearchTool({ search: () => [] }));
    openai.server.script({ text: 'ok' });
    await run(service(manager, tools, manager.writeToolNames()), 'hi');
    const offered = (openai.server.requests[0]?.body as { tools: { function: { name: string } }[] }).tools;
    expect(offered.map((t) => t.function.name)).toEqual(['note_read', 'session_search']);
  });
});
