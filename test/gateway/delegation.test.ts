// Acceptance of delegate_task through the real gateway (real SQLite, the fake OpenAI server over
// HTTP): three tasks run concurrently, subagent_stop fires once per child (recorded by the example
// plugin of docs/delegation.md, loaded by the real plugin loader), children's sessions are stored
// and linked, and /stop interrupts the children.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ToolRegistry } from '@hermes/agent';
import { HookBus, loadPlugins } from '@hermes/plugins';
import { type ChatMessage, silentLogger } from '@hermes/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../fakes/openai-server.js';
import { fileBlocks } from '../helpers/doc-blocks.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { waitFor } from '../helpers/wait-for.js';
import { type Harness, startHarness } from './harness.js';

const openai = useFakeOpenAI();
const DOC = readFileSync(fileURLToPath(new URL('../../docs/delegation.md', import.meta.url)), 'utf8');
const SDK = fileURLToPath(new URL('../../packages/plugin-sdk/src/index.ts', import.meta.url));
const CHILD_DELAY_MS = 600;

/** A bus with the docs' subagent-audit plugin loaded from HERMES_HOME/plugins; returns its log file. */
async function busWithAuditPlugin(): Promise<{ hooks: HookBus; log: string }> {
  const home = mkdtempSync(join(tmpdir(), 'hermes-deleg-'));
  const dir = join(home, 'plugins', 'subagent-audit');
  mkdirSync(dir, { recursive: true });
  for (const [file, body] of fileBlocks(DOC)) writeFileSync(join(dir, file), body);
  const hooks = new HookBus({ timeoutMs: 5_000 });
  const records = await loadPlugins({
    dirs: [{ dir: join(home, 'plugins'), source: 'user' }],
    enabled: ['subagent-audit'],
    disabled: [],
    env: {},
    tools: new ToolRegistry(),
    hooks,
    logger: silentLogger,
    aliases: { '@hermes/plugin-sdk': SDK },
  });
  expect(records.map((r) => [r.key, r.state, r.error])).toEqual([['subagent-audit', 'enabled', null]]);
  return { hooks, log: join(dir, 'subagents.jsonl') };
}

function lines(log: string): Record<string, unknown>[] {
  if (!existsSync(log)) return [];
  return readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

const messagesOf = (r: RecordedRequest) => (r.body?.messages ?? []) as ChatMessage[];
const isChild = (r: RecordedRequest) => String(messagesOf(r)[0]?.content).includes('You are a subagent');
const goalOf = (r: RecordedRequest) => String(messagesOf(r).find((m) => m.role === 'user')?.content);
const THREE = { tasks: [{ goal: 'count apples' }, { goal: 'count pears' }, { goal: 'count plums' }] };

let h: Harness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

describe('delegate_task through the gateway', () => {
  it('three tasks run concurrently, subagent_stop fires three times, children are stored and linked', async () => {
    const { hooks, log } = await busWithAuditPlugin();
    let delegateMs = -1;
    hooks.register(
      'post_tool_call',
      ({ toolName, durationMs }) => {
        if (toolName === 'delegate_task') delegateMs = durationMs;
      },
      { source: 'test', name: 'timer' },
    );
    h = await startHarness(openai.server, { hooks, turn: { delegation: { maxParallelChildren: 3 } } });
    openai.server.respond((r) => {
      if (isChild(r)) return { text: `done: ${goalOf(r)}`, delayMs: CHILD_DELAY_MS };
      if (messagesOf(r).some((m) => m.role === 'tool')) return { text: 'all three counted' };
      return { toolCalls: [{ name: 'delegate_task', arguments: THREE }] };
    });
    await h.platform.inject('count the fruit, in parallel please');
    await h.gateway.idle();

    expect(h.platform.sent.map((m) => m.text)).toEqual(['all three counted']);
    const stops = lines(log);
    expect(stops.map((s) => s.childStatus)).toEqual(['completed', 'completed', 'completed']);
    expect(stops.map((s) => s.childSummary)).toEqual(['done: count apples', 'done: count pears', 'done: count plums']);
    // concurrency: the call took well under the children's summed wall time (each waited 600 ms)
    const sum = stops.reduce((total, s) => total + (s.durationMs as number), 0);
    expect(sum).toBeGreaterThanOrEqual(3 * CHILD_DELAY_MS);
    expect(delegateMs).toBeGreaterThan(0);
    expect(delegateMs).toBeLessThan(sum * 0.7);

    const parent = h.store.sessions.activeByKey('memory:c1:dm');
    expect(stops.every((s) => s.parentSessionId === parent?.id)).toBe(true);
    const children = h.store.childSessions.listByParent(parent?.id ?? '');
    expect(children.map((c) => [c.taskIndex, c.status, c.messages])).toEqual([
      [0, 'completed', 2],
      [1, 'completed', 2],
      [2, 'completed', 2],
    ]);
    expect(h.store.transcripts.list(children[0]?.childId ?? '').map((m) => m.content)).toEqual([
      'count apples',
      'done: count apples',
    ]);
  });

  it('/stop interrupts the children: their model requests are aborted and subagent_stop still fires per child', async () => {
    const { hooks, log } = await busWithAuditPlugin();
    h = await startHarness(openai.server, { hooks, turn: { delegation: { maxParallelChildren: 3 } } });
    openai.server.respond((r) => {
      if (isChild(r)) return { hang: true };
      return { toolCalls: [{ name: 'delegate_task', arguments: THREE }] };
    });
    await h.platform.inject('count the fruit');
    await waitFor(() => openai.server.requests.filter(isChild).length >= 3, {
      what: 'the three children at their model',
    });
    await h.platform.inject('/stop');
    await h.gateway.idle();

    expect(h.platform.sent.map((m) => m.text)).toEqual(['Stopped.']);
    const children = openai.server.requests.filter(isChild);
    expect(children).toHaveLength(3);
    await expect.poll(() => children.every((r) => r.closedUnanswered === true)).toBe(true);
    expect(lines(log).map((s) => s.childStatus)).toEqual(['interrupted', 'interrupted', 'interrupted']);
    const parent = h.store.sessions.activeByKey('memory:c1:dm');
    expect(h.store.childSessions.listByParent(parent?.id ?? '').map((c) => c.status)).toEqual([
      'interrupted',
      'interrupted',
      'interrupted',
    ]);
  });
});
