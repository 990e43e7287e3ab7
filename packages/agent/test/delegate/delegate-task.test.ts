import { HookBus } from '@hermes/plugins';
import type { ApprovalRequest } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../../../../test/helpers/use-fake-openai.js';
import { waitFor } from '../../../../test/helpers/wait-for.js';
import { CHILD_INSTRUCTIONS } from '../../src/index.js';
import {
  delegateResult,
  delegatingService,
  goalOf,
  isChild,
  messagesOf,
  parentReplies,
  tool,
  toolNamesOf,
} from './delegate-helpers.js';

const openai = useFakeOpenAI();

function recordStops(bus: HookBus): Record<string, unknown>[] {
  const stops: Record<string, unknown>[] = [];
  bus.register('subagent_stop', (payload) => void stops.push({ ...payload }), { source: 'test', name: 'stops' });
  return stops;
}

const run = (turns: ReturnType<typeof delegatingService>, signal?: AbortSignal) =>
  turns.run({
    sessionId: 'sess_parent',
    platform: 'telegram',
    userMessage: 'please delegate',
    history: [{ role: 'user', content: 'an earlier parent message' }],
    persist: 'none',
    approval: async () => 'deny',
    ...(signal ? { signal } : {}),
  });

describe('delegate_task', () => {
  it('children get a fresh history, the child prompt and the parent tools minus the excluded ones', async () => {
    const bus = new HookBus({ timeoutMs: 1_000 });
    const tools = [
      tool('echo', 'test'),
      tool('terminal', 'terminal'),
      tool('send_message', 'messaging'),
      tool('memory', 'memory'),
      tool('cronjob', 'cron'),
      tool('clarify', 'clarify'),
    ];
    const turns = delegatingService(openai.server.url, bus, { tools });
    const parent = parentReplies({
      tasks: [
        { goal: 'task A', context: 'the fact is 42' },
        { goal: 'task B', toolsets: ['test', 'memory', 'nope'] },
      ],
    });
    openai.server.respond((r) => (isChild(r) ? { text: `summary of ${goalOf(r).split('\n')[0]}` } : parent(r)));
    const result = await run(turns);
    expect(result.finalText).toBe('parent done');
    const parentTools = toolNamesOf(openai.server.requests[0]!);
    expect(parentTools).toContain('delegate_task');
    const children = openai.server.requests.filter(isChild);
    expect(children).toHaveLength(2);
    const byGoal = new Map(children.map((r) => [goalOf(r).split('\n')[0], r]));
    const a = byGoal.get('task A')!;
    expect(messagesOf(a).map((m) => m.role)).toEqual(['system', 'user']);
    expect(messagesOf(a)[0]?.content).toContain(CHILD_INSTRUCTIONS);
    expect(goalOf(a)).toBe('task A\n\nContext from the delegating agent:\nthe fact is 42');
    expect(toolNamesOf(a)).toEqual(['echo', 'terminal']);
    // asked for test, memory and an unknown toolset: only what the parent has and a child may have
    expect(toolNamesOf(byGoal.get('task B')!)).toEqual(['echo']);
    expect(delegateResult(result.messages).results).toEqual([
      expect.objectContaining({ task: 1, goal: 'task A', status: 'completed', summary: 'summary of task A' }),
      expect.objectContaining({ task: 2, goal: 'task B', status: 'completed', summary: 'summary of task B' }),
    ]);
  });

  it('fires subagent_stop once per child in task order with the seed fields', async () => {
    const bus = new HookBus({ timeoutMs: 1_000 });
    const stops = recordStops(bus);
    const turns = delegatingService(openai.server.url, bus);
    const parent = parentReplies({ tasks: [{ goal: 'slow' }, { goal: 'fast' }, { goal: 'broken' }] });
    openai.server.respond((r) => {
      if (!isChild(r)) return parent(r);
      if (goalOf(r) === 'slow') return { text: 'slow done', delayMs: 150 };
      if (goalOf(r) === 'broken') return { status: 400 };
      return { text: 'fast done' };
    });
    await run(turns);
    expect(stops.map((s) => [s.childSummary, s.childStatus])).toEqual([
      ['slow done', 'completed'],
      ['fast done', 'completed'],
      [null, 'failed'],
    ]);
    for (const stop of stops) {
      expect(stop).toMatchObject({ parentSessionId: 'sess_parent', childRole: null });
      expect(typeof stop.durationMs).toBe('number');
    }
    expect(stops[0]!.durationMs as number).toBeGreaterThanOrEqual(150);
  });

  it('runs at most agent.max_parallel_children at once; the rest wait', async () => {
    const bus = new HookBus({ timeoutMs: 1_000 });
    const turns = delegatingService(openai.server.url, bus, { delegation: { maxParallelChildren: 2 } });
    const parent = parentReplies({ tasks: ['a', 'b', 'c', 'd', 'e'].map((goal) => ({ goal })) });
    let running = 0;
    let started = 0;
    let most = 0;
    openai.server.respond(async (r) => {
      if (!isChild(r)) return parent(r);
      running++;
      started++;
      most = Math.max(most, running);
      // each child holds its slot until a second runs beside it (or it is the last): a limit of one
      // would never let that happen, and this wait fails; a limit above two shows in `most`
      await waitFor(() => running >= 2 || started === 5, { what: 'a second child running at once' });
      running--;
      return { text: `did ${goalOf(r)}` };
    });
    const result = await run(turns);
    expect(most).toBe(2);
    expect(delegateResult(result.messages).results.map((e) => e.summary)).toEqual([
      'did a',
      'did b',
      'did c',
      'did d',
      'did e',
    ]);
  });

  it('a child that keeps calling tools stops at agent.child_max_iterations and is failed', async () => {
    const bus = new HookBus({ timeoutMs: 1_000 });
    const stops = recordStops(bus);
    const turns = delegatingService(openai.server.url, bus, {
      tools: [tool('echo', 'test')],
      delegation: { childMaxIterations: 2 },
    });
    const parent = parentReplies({ goal: 'loop forever' });
    openai.server.respond((r) => (isChild(r) ? { toolCalls: [{ name: 'echo', arguments: {} }] } : parent(r)));
    const result = await run(turns);
    const [entry] = delegateResult(result.messages).results;
    expect(entry).toMatchObject({ status: 'failed', summary: null, iterations: 2 });
    expect(entry?.error).toContain('agent.child_max_iterations');
    expect(openai.server.requests.filter(isChild)).toHaveLength(2);
    expect(stops.map((s) => s.childStatus)).toEqual(['failed']);
  });

  it('a child past agent.child_timeout_s is stopped and failed; the parent goes on', async () => {
    const bus = new HookBus({ timeoutMs: 1_000 });
    const turns = delegatingService(openai.server.url, bus, { delegation: { childTimeoutMs: 150 } });
    const parent = parentReplies({ tasks: [{ goal: 'hang' }, { goal: 'quick' }] });
    openai.server.respond((r) =>
      isChild(r) ? (goalOf(r) === 'hang' ? { hang: true } : { text: 'quick done' }) : parent(r),
    );
    const result = await run(turns);
    expect(result.status).toBe('completed');
    const [hung, quick] = delegateResult(result.messages).results;
    expect(hung).toMatchObject({ status: 'failed' });
    expect(hung?.error).toContain('agent.child_timeout_s');
    expect(quick).toMatchObject({ status: 'completed', summary: 'quick done' });
  });

  it("the parent's interruption stops running children and queued ones never start; each still gets subagent_stop", async () => {
    const bus = new HookBus({ timeoutMs: 1_000 });
    const stops = recordStops(bus);
    const turns = delegatingService(openai.server.url, bus, { delegation: { maxParallelChildren: 2 } });
    const parent = parentReplies({ tasks: [{ goal: 'x' }, { goal: 'y' }, { goal: 'z' }] });
    const controller = new AbortController();
    let started = 0;
    openai.server.respond((r) => {
      if (!isChild(r)) return parent(r);
      if (++started === 2) setTimeout(() => controller.abort(), 20);
      return { hang: true };
    });
    const result = await run(turns, controller.signal);
    expect(result.status).toBe('interrupted');
    expect(openai.server.requests.filter(isChild)).toHaveLength(2);
    expect(stops.map((s) => s.childStatus)).toEqual(['interrupted', 'interrupted', 'interrupted']);
    const toolMessage = result.messages.find((m) => m.role === 'tool');
    const entries = JSON.parse(toolMessage?.content ?? '{}').results as Record<string, unknown>[];
    expect(entries.map((e) => e.status)).toEqual(['interrupted', 'interrupted', 'interrupted']);
    expect(entries[2]).toMatchObject({ session_id: null, duration_ms: 0 });
  });

  it("a child's dangerous command is asked of the parent's approval gate", async () => {
    const bus = new HookBus({ timeoutMs: 1_000 });
    const asked: ApprovalRequest[] = [];
    const risky = tool('risky', 'test', async (_args, ctx) => ({
      choice: await ctx.requestApproval({
        command: 'rm -rf build',
        description: 'delete',
        patternKey: 'rm',
        patternKeys: ['rm'],
      }),
    }));
    const turns = delegatingService(openai.server.url, bus, { tools: [risky] });
    const parent = parentReplies({ goal: 'clean up' });
    openai.server.respond((r) => {
      if (!isChild(r)) return parent(r);
      return messagesOf(r).some((m) => m.role === 'tool')
        ? { text: 'cleaned' }
        : { toolCalls: [{ name: 'risky', arguments: {} }] };
    });
    const result = await turns.run({
      sessionId: 'sess_parent',
      platform: 'telegram',
      userMessage: 'go',
      history: [],
      persist: 'none',
      approval: async (request) => {
        asked.push(request);
        return 'once';
      },
    });
    expect(asked.map((a) => a.command)).toEqual(['rm -rf build']);
    const childToolResult = messagesOf(openai.server.requests.filter(isChild).at(-1)!).find((m) => m.role === 'tool');
    expect(childToolResult?.content).toContain('once');
    expect(delegateResult(result.messages).results[0]).toMatchObject({ status: 'completed', summary: 'cleaned' });
  });

  it('bad arguments are a tool error naming the argument; no child runs and no hook fires', async () => {
    const bus = new HookBus({ timeoutMs: 1_000 });
    const stops = recordStops(bus);
    const turns = delegatingService(openai.server.url, bus);
    const parent = parentReplies({ tasks: [{ goal: 'ok' }, { context: 'no goal' }] });
    openai.server.respond((r) => (isChild(r) ? { text: 'never' } : parent(r)));
    const result = await run(turns);
    const toolMessage = result.messages.find((m) => m.role === 'tool');
    expect(JSON.parse(toolMessage?.content ?? '{}')).toMatchObject({
      error: 'tasks[1].goal must be a non-empty string, got undefined',
      code: 'HERMES_TOOL_ARGS',
    });
    expect(openai.server.requests.filter(isChild)).toHaveLength(0);
    expect(stops).toHaveLength(0);
  });

  it("children's summaries pass the process's redactor before the parent sees them", async () => {
    const bus = new HookBus({ timeoutMs: 1_000 });
    const turns = delegatingService(openai.server.url, bus, {
      redact: (t) => t.replaceAll('sk-live-123', '[REDACTED]'),
    });
    const parent = parentReplies({ goal: 'read the key' });
    openai.server.respond((r) => (isChild(r) ? { text: 'the key is sk-live-123' } : parent(r)));
    const result = await run(turns);
    expect(delegateResult(result.messages).results[0]?.summary).toBe('the key is [REDACTED]');
  });

  it('a child that cannot be started (its session not stored) is an error; the others run', async () => {
    const bus = new HookBus({ timeoutMs: 1_000 });
    const stops = recordStops(bus);
    let n = 0;
    const sessions = {
      start: () => {
        if (++n === 1) throw new Error('database is locked');
        return `sess_child_${n}`;
      },
      finish: () => {},
    };
    const turns = delegatingService(openai.server.url, bus, { delegation: { sessions, maxParallelChildren: 1 } });
    const parent = parentReplies({ tasks: [{ goal: 'first' }, { goal: 'second' }] });
    openai.server.respond((r) => (isChild(r) ? { text: `did ${goalOf(r)}` } : parent(r)));
    // the service has no transcripts: persisting the second child fails after its turn, also an error
    const result = await run(turns);
    const entries = delegateResult(result.messages).results;
    expect(entries[0]).toMatchObject({ status: 'error', error: 'database is locked', session_id: null });
    expect(entries[1]).toMatchObject({ status: 'error', session_id: 'sess_child_2' });
    expect(stops.map((s) => s.childStatus)).toEqual(['error', 'error']);
  });

  it('an async sessions port (PostgreSQL): start and finish are awaited, a rejected start is an error', async () => {
    const bus = new HookBus({ timeoutMs: 1_000 });
    let n = 0;
    const finished: [string, string][] = [];
    const sessions = {
      start: async () => {
        if (++n === 1) throw new Error('connection terminated');
        return `sess_child_${n}`;
      },
      finish: async (id: string, status: string) => {
        await new Promise((r) => setTimeout(r, 5));
        finished.push([id, status]);
      },
    };
    const turns = delegatingService(openai.server.url, bus, { delegation: { sessions, maxParallelChildren: 1 } });
    const parent = parentReplies({ tasks: [{ goal: 'first' }, { goal: 'second' }] });
    openai.server.respond((r) => (isChild(r) ? { text: `did ${goalOf(r)}` } : parent(r)));
    const result = await run(turns);
    const entries = delegateResult(result.messages).results;
    expect(entries[0]).toMatchObject({ status: 'error', error: 'connection terminated', session_id: null });
    expect(entries[1]).toMatchObject({ session_id: 'sess_child_2' });
    // the end was recorded before the parent's turn went on
    expect(finished).toEqual([['sess_child_2', entries[1]?.status]]);
  });
});
