// /compress in a chat: the context engine runs now, the reply says what it did, the next turn starts
// from the stored summary, and the transcript keeps every message.
import { compressor, SUMMARY_INSTRUCTIONS } from '@hermes/agent';
import type { ChatMessage } from '@hermes/protocol';
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

describe('/compress', () => {
  it('summarizes the middle now, replies with the counts, and the next turn starts from the summary', async () => {
    const summaries = {
      latest: (id: string) => h?.store.contextSummaries.latest(id) ?? null,
      save: (id: string, s: { headCount: number; keepFrom: number; summary: string }) =>
        h?.store.contextSummaries.save(id, s),
    };
    h = await startHarness(openai.server, {
      turn: {
        context: { engine: compressor, contextLength: 100_000, threshold: 0.75, protectLastN: 2, summaries },
      },
    });
    openai.server.script(
      { text: 'a1' },
      { text: 'a2' },
      { text: 'a3' },
      { text: 'a4' },
      { text: 'THE SUMMARY' },
      { text: 'a5' },
    );
    for (const text of ['one', 'two', 'three', 'four']) {
      await h.platform.inject(text);
      await h.gateway.idle();
    }
    await h.platform.inject('/compress');
    await h.gateway.idle();
    // the head (one) and the last two exchanges (three, four) stay whole: only two is summarized
    expect(messagesOf(4)[0]?.content).toBe(SUMMARY_INSTRUCTIONS);
    expect(messagesOf(4)[1]?.content).toContain('User: two');
    expect(messagesOf(4)[1]?.content).not.toContain('three');
    expect(h.platform.sent.at(-1)?.text).toMatch(/^Compressed: 8 → 7 messages, about \d+ → \d+ tokens/);
    await h.platform.inject('five');
    await h.gateway.idle();
    const sent = messagesOf(5).map((m) => m.content);
    expect(sent.slice(1)).toEqual([
      'one',
      'a1',
      expect.stringContaining('THE SUMMARY'),
      'three',
      'a3',
      'four',
      'a4',
      'five',
    ]);
    const session = h.store.sessions.list({ limit: 1 })[0];
    expect(h.store.transcripts.count(session?.id ?? '')).toBe(10);
    expect(h.store.contextSummaries.count(session?.id ?? '')).toBe(1);
  });

  it('says so when there is no session yet', async () => {
    h = await startHarness(openai.server, {
      turn: { context: { engine: compressor, contextLength: 100_000, threshold: 0.75, protectLastN: 2 } },
    });
    await h.platform.inject('/compress');
    await h.gateway.idle();
    expect(h.platform.sent.at(-1)?.text).toBe('No session yet.');
  });
});
