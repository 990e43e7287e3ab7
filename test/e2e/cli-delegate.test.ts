// `hermes -z` offers delegate_task (config's agent.* delegation keys wired into the CLI's turn
// service): the children run, the parent answers from their summaries, and the children's sessions
// are stored in state.db linked to the one-shot session.
import { join } from 'node:path';
import type { ChatMessage } from '@hermes/protocol';
import { openStore } from '@hermes/store';
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../fakes/openai-server.js';
import { runHermes, tempHome } from '../helpers/run-hermes.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';

const openai = useFakeOpenAI();
const messagesOf = (r: RecordedRequest) => (r.body?.messages ?? []) as ChatMessage[];
const isChild = (r: RecordedRequest) => String(messagesOf(r)[0]?.content).includes('You are a subagent');

describe('hermes -z with delegate_task', () => {
  it('runs the children, answers from their summaries and stores them linked to the session', async () => {
    const home = tempHome();
    openai.server.respond((r) => {
      if (isChild(r)) return { text: `child saw: ${String(messagesOf(r)[1]?.content)}` };
      const tool = messagesOf(r).find((m) => m.role === 'tool');
      if (tool) {
        const { results } = JSON.parse(tool.content) as { results: { summary: string }[] };
        return { text: results.map((e) => e.summary).join(' | ') };
      }
      return { toolCalls: [{ name: 'delegate_task', arguments: { tasks: [{ goal: 'one' }, { goal: 'two' }] } }] };
    });
    const r = await runHermes(['-z', 'split it'], {
      env: { HERMES_HOME: home, OPENAI_BASE_URL: openai.server.url, HERMES_INFERENCE_MODEL: 'test-model' },
    });
    expect(r.stdout).toBe('child saw: one | child saw: two\n');
    expect(r.code).toBe(0);
    // the child has no delegate_task
    const child = openai.server.requests.find(isChild);
    const childTools = ((child?.body?.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);
    expect(childTools).not.toContain('delegate_task');
    expect(childTools).toContain('terminal');

    const store = openStore(join(home, 'state.db'), { backgroundCheckpoints: false });
    try {
      const [parent] = store.sessions
        .list({ limit: 10, platform: 'cli' })
        .filter((s) => s.sessionKey === 'cli:oneshot');
      const children = store.childSessions.listByParent(parent?.id ?? '');
      expect(children.map((c) => [c.goal, c.status, c.messages])).toEqual([
        ['one', 'completed', 2],
        ['two', 'completed', 2],
      ]);
    } finally {
      store.close();
    }
  });
});
