// The gateway's turns carry memory: a `memory` tool write in one chat shows in the system prompt
// of that chat's next session (after /new), while the session that wrote it keeps its prompt;
// session_search finds the other session's words, not the current one's.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBuiltinMemoryProvider, createSessionSearchTool, MemoryManager } from '@hermes/agent';
import type { ChatMessage } from '@hermes/protocol';
import { silentLogger } from '@hermes/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { type Harness, startHarness } from './harness.js';

const openai = useFakeOpenAI();
let h: Harness | null = null;
afterEach(async () => {
  await h?.stop();
  h = null;
});

const chat = () => openai.server.requests.filter((r) => r.path.endsWith('/chat/completions'));
const messagesOf = (i: number) => (chat()[i]?.body as { messages: ChatMessage[] }).messages;

describe('memory in the gateway', () => {
  it('a memory write shows in the next session’s system prompt; session_search leaves the current session out', async () => {
    const home = mkdtempSync(join(tmpdir(), 'hermes-gw-memory-'));
    h = await startHarness(openai.server, {
      memory: (store, tools) => {
        const manager = new MemoryManager({
          provider: createBuiltinMemoryProvider({ home }),
          snapshots: store.memorySnapshots,
          logger: silentLogger,
        });
        for (const tool of manager.tools()) tools.register(tool);
        tools.register(createSessionSearchTool(store.sessionSearch));
        return manager;
      },
    });
    openai.server.script(
      { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'user', content: 'Ada keeps bees' } }] },
      { text: 'Noted.' },
      { text: 'Second turn.' },
    );
    await h.platform.inject('remember: I keep bees');
    await h.gateway.idle();
    await h.platform.inject('and the honey?');
    await h.gateway.idle();
    expect(h.platform.sent.map((m) => m.text)).toEqual(['Noted.', 'Second turn.']);
    // the writing session keeps the prompt it began with
    expect(messagesOf(2)[0]?.content).toBe(messagesOf(0)[0]?.content);
    expect(String(messagesOf(0)[0]?.content)).not.toContain('Ada keeps bees');

    await h.platform.inject('/new');
    await h.gateway.idle();
    openai.server.script(
      { toolCalls: [{ name: 'session_search', arguments: { query: 'bees' } }] },
      { text: 'You keep bees.' },
    );
    await h.platform.inject('what do I keep?');
    await h.gateway.idle();
    expect(h.platform.sent.at(-1)?.text).toBe('You keep bees.');
    const next = messagesOf(3);
    expect(String(next[0]?.content)).toContain('## About the user (their profile): 14/1375 chars\nAda keeps bees');
    const result = JSON.parse(String(messagesOf(4).find((m) => m.role === 'tool')?.content)) as {
      results: { session_id: string; snippet: string }[];
    };
    const current = h.store.sessions.list({ limit: 10 }).find((s) => s.endedAt === null);
    expect(result.results.length).toBeGreaterThan(0);
    expect(result.results.every((r) => r.session_id !== current?.id)).toBe(true);
    expect(result.results[0]?.snippet).toContain('[bees]');
  });
});
