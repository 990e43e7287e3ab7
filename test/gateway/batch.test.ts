// gateway.batch_ms: one user's messages in one chat within the window are one turn (a split
// paste); each message is in the inbox, and a crash mid-batch loses none and answers once.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MessageEvent } from '@hermes/protocol';
import { openStore } from '@hermes/store';
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
const lastUser = (i: number) =>
  (chat()[i]?.body as { messages: { role: string; content: string }[] }).messages
    .filter((m) => m.role === 'user')
    .at(-1)?.content;

describe('gateway.batch_ms', () => {
  it('the parts of a split paste are one turn, one answer; every inbox row is done', async () => {
    h = await startHarness(openai.server, { settings: { batchMs: 300 } });
    openai.server.script({ text: 'one answer' });
    // the memory platform's limit is 500: a 450-character message may be a cut part
    const partOne = `part one ${'x'.repeat(441)}`;
    await h.platform.inject(partOne);
    await h.platform.inject('part two');
    await h.platform.inject('part three');
    await h.gateway.idle();
    expect(chat()).toHaveLength(1);
    expect(lastUser(0)).toBe(`${partOne}\npart two\npart three`);
    expect(h.platform.sent.map((m) => m.text)).toEqual(['one answer']);
    expect(h.store.inbox.pending()).toEqual([]);
  });

  it('a short message is not held back: only one long enough to be a cut part opens a batch', async () => {
    h = await startHarness(openai.server, { settings: { batchMs: 5_000 } });
    openai.server.script({ text: 'at once' });
    const started = Date.now();
    await h.platform.inject('a short question');
    await h.gateway.idle();
    expect(h.platform.sent.map((m) => m.text)).toEqual(['at once']);
    // answered without waiting for the 5 s window (the harness would otherwise idle for 5 s)
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  it('other users and other chats are not joined; 0 turns each message on its own', async () => {
    h = await startHarness(openai.server, { settings: { batchMs: 300 }, env: { MEMORY_ALLOWED_USERS: 'u1,u2' } });
    openai.server.script({ text: 'a' }, { text: 'b' }, { text: 'c' });
    await h.platform.inject(`from u1 ${'x'.repeat(450)}`);
    await h.platform.inject(`from u2 ${'x'.repeat(450)}`, { userId: 'u2', chatId: 'c2' });
    await h.platform.inject(`u1 elsewhere ${'x'.repeat(450)}`, { chatId: 'c3' });
    await h.gateway.idle();
    expect(chat()).toHaveLength(3);
    await h.stop();
    h = await startHarness(openai.server, { settings: { batchMs: 0 } });
    openai.server.reset();
    openai.server.script({ text: 'x' }, { text: 'y' });
    await h.platform.inject('first');
    await h.gateway.idle();
    await h.platform.inject('second');
    await h.gateway.idle();
    expect(chat()).toHaveLength(2);
  });

  it('a crash mid-batch: the next start joins the pending parts again and answers once', async () => {
    const dbPath = join(mkdtempSync(join(tmpdir(), 'hermes-batch-')), 'state.db');
    // what a crashed run left: both parts accepted (in the inbox), neither answered
    const store = openStore(dbPath);
    const firstHalf = `first half ${'x'.repeat(450)}`;
    for (const [id, text] of [
      ['p1', firstHalf],
      ['p2', 'second half'],
    ] as const) {
      const event: MessageEvent = {
        kind: 'text',
        platform: 'memory',
        messageId: id,
        text,
        source: { platform: 'memory', chatId: 'c1', chatType: 'dm', userId: 'u1', userName: 'Ada' },
        internal: false,
        receivedAt: Date.now(),
        raw: { text },
      };
      store.inbox.accept('memory', id, event, { sessionKey: 'memory:c1:dm' });
    }
    store.close();
    openai.server.script({ text: 'answered once' });
    h = await startHarness(openai.server, { dbPath, settings: { batchMs: 300 } });
    await h.gateway.idle();
    expect(chat()).toHaveLength(1);
    expect(lastUser(0)).toBe(`${firstHalf}\nsecond half`);
    expect(h.platform.sent.map((m) => m.text)).toEqual(['answered once']);
    expect(h.store.inbox.pending()).toEqual([]);
  });

  it('stopping answers the parts still waiting (they are not left behind)', async () => {
    h = await startHarness(openai.server, { settings: { batchMs: 5_000 } });
    openai.server.script({ text: 'answered at stop' });
    await h.platform.inject(`waiting part ${'x'.repeat(450)}`);
    await h.gateway.stop(2_000);
    expect(h.platform.sent.map((m) => m.text)).toEqual(['answered at stop']);
    expect(h.store.inbox.pending()).toEqual([]);
  });

  it('/stop drops parts still waiting for their window: no turn, the rows finished, the chat goes on', async () => {
    h = await startHarness(openai.server, { settings: { batchMs: 5_000 } });
    openai.server.script({ text: 'after the stop' });
    await h.platform.inject(`never mind this ${'x'.repeat(450)}`);
    await h.platform.inject('/stop');
    await h.gateway.idle();
    expect(chat()).toHaveLength(0);
    expect(h.platform.sent.map((m) => m.text)).toEqual(['Stopped.']);
    expect(h.store.inbox.pending()).toEqual([]);
    await h.platform.inject('/new');
    await h.gateway.idle();
    expect(h.platform.sent).toHaveLength(2);
  });
});
