import { createBuiltinTools } from '@hermes/agent';
import { createSendMessageTool } from '@hermes/gateway';
import type { ChatMessage } from '@hermes/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { waitFor } from '../helpers/wait-for.js';
import { type Harness, startHarness } from './harness.js';

const openai = useFakeOpenAI();
let h: Harness | null = null;
afterEach(async () => {
  await h?.stop();
  h = null;
});

const chat = () => openai.server.requests.filter((r) => r.path.endsWith('/chat/completions'));
const lastMessages = () => (chat().at(-1)?.body as { messages: ChatMessage[] }).messages;

describe('the gateway pipeline', () => {
  it('answers an allowed DM through the agent and delivers the reply', async () => {
    h = await startHarness(openai.server);
    openai.server.script({ text: 'hello Ada', delayMs: 500 });
    await h.platform.inject('hi there');
    await h.gateway.idle();
    expect(h.platform.sent.map((m) => m.text)).toEqual(['hello Ada']);
    expect(lastMessages().at(-1)).toEqual({ role: 'user', content: 'hi there' });
    expect(h.platform.typing).toBeGreaterThan(0);
  });

  it('a redelivered message is processed once', async () => {
    h = await startHarness(openai.server);
    openai.server.script({ text: 'once' }, { text: 'twice' });
    await h.platform.inject('hi', {}, 'same-id');
    await h.platform.inject('hi', {}, 'same-id');
    await h.gateway.idle();
    expect(h.platform.sent.map((m) => m.text)).toEqual(['once']);
    expect(chat()).toHaveLength(1);
    expect(h.platform.typing).toBe(0); // a quick answer shows no typing indicator
  });

  it('an unknown user gets a pairing code and the model is never called; after approval they are answered', async () => {
    h = await startHarness(openai.server, { env: { MEMORY_ALLOWED_USERS: '' } });
    await h.platform.inject('let me in', { userId: 'stranger', userName: 'Eve' });
    await h.gateway.idle();
    expect(chat()).toHaveLength(0);
    const code = /pairing code is ([A-Z0-9]{8})/.exec(h.platform.sent[0]?.text ?? '')?.[1];
    expect(code).toBeDefined();
    expect(h.platform.sent[0]?.text).toContain(`hermes pairing approve memory ${code}`);
    expect(h.store.pairing.approve('memory', code ?? '')).toMatchObject({ ok: true, userId: 'stranger' });
    openai.server.script({ text: 'welcome' });
    await h.platform.inject('hello again', { userId: 'stranger' });
    await h.gateway.idle();
    expect(h.platform.sent.at(-1)?.text).toBe('welcome');
  });

  it('groups: unknown users get silence; allowed users are answered only when addressed', async () => {
    h = await startHarness(openai.server);
    await h.platform.inject('hey', { chatType: 'group', chatId: 'g1', userId: 'stranger' });
    await h.platform.inject('ambient chatter', { chatType: 'group', chatId: 'g1' });
    await h.gateway.idle();
    expect(h.platform.sent).toEqual([]);
    expect(chat()).toHaveLength(0);
    openai.server.script({ text: 'you called?' });
    await h.platform.inject('@bot help me', { chatType: 'group', chatId: 'g1', mentioned: true }, 'g1:77');
    await h.gateway.idle();
    expect(h.platform.sent).toEqual([
      // the answered message by its whole message id (the adapter finds its platform's own id in it)
      expect.objectContaining({ chatId: 'g1', text: 'you called?', replyToMessageId: 'g1:77' }),
    ]);
  });

  it('pre_gateway_dispatch: skip drops, rewrite replaces the text, a throwing callback falls through', async () => {
    h = await startHarness(openai.server);
    h.hooks.register(
      'pre_gateway_dispatch',
      () => {
        throw new Error('broken policy');
      },
      { source: 'test', name: 'thrower' },
    );
    h.hooks.register(
      'pre_gateway_dispatch',
      ({ event }) => {
        if (event.text === 'drop me') return { action: 'skip', reason: 'test' } as const;
        if (event.text === 'rewrite me') return { action: 'rewrite', text: 'rewritten text' } as const;
        return null;
      },
      { source: 'test', name: 'policy' },
    );
    openai.server.script({ text: 'answered' });
    await h.platform.inject('drop me');
    await h.platform.inject('rewrite me');
    await h.gateway.idle();
    expect(chat()).toHaveLength(1);
    expect(lastMessages().at(-1)).toEqual({ role: 'user', content: 'rewritten text' });
    expect(h.platform.sent.map((m) => m.text)).toEqual(['answered']);
  });

  it('/new starts a fresh session: the next request carries no earlier history', async () => {
    h = await startHarness(openai.server);
    openai.server.script({ text: 'first' }, { text: 'second' }, { text: 'third' });
    await h.platform.inject('one');
    await h.gateway.idle();
    await h.platform.inject('two');
    await h.gateway.idle();
    expect(lastMessages().filter((m) => m.role === 'user')).toHaveLength(2);
    await h.platform.inject('/new');
    await h.gateway.idle();
    expect(h.platform.sent.at(-1)?.text).toBe('Started a new session.');
    await h.platform.inject('three');
    await h.gateway.idle();
    expect(lastMessages().filter((m) => m.role !== 'system')).toEqual([{ role: 'user', content: 'three' }]);
  });

  it('unknown commands get a helpful answer; /help lists the commands', async () => {
    h = await startHarness(openai.server);
    await h.platform.inject('/frobnicate');
    await h.platform.inject('/help');
    await h.gateway.idle();
    expect(h.platform.sent[0]?.text).toBe('Unknown command /frobnicate. Send /help for the list.');
    expect(h.platform.sent[1]?.text).toMatch(/\/new · start a fresh session/);
    expect(chat()).toHaveLength(0);
  });

  it('/stop ends a running turn; interrupt mode answers the newer message', async () => {
    h = await startHarness(openai.server);
    openai.server.script({ hang: true });
    await h.platform.inject('slow question');
    await waitFor(() => chat().length === 1, { what: 'the turn at its model call' });
    await h.platform.inject('/stop');
    await h.gateway.idle();
    expect(h.platform.sent.map((m) => m.text)).toEqual(['Stopped.']);
    openai.server.script({ hang: true }, { text: 'answer to the second' });
    await h.platform.inject('first');
    await waitFor(() => chat().length === 2, { what: 'the first turn at its model call' });
    await h.platform.inject('second');
    await h.gateway.idle();
    expect(h.platform.sent.at(-1)?.text).toBe('answer to the second');
    expect(h.platform.sent.filter((m) => m.text !== 'Stopped.')).toHaveLength(1);
  });

  it('splits a long answer within the limit and waits out a 429, delivering once', async () => {
    h = await startHarness(openai.server);
    const long = Array.from({ length: 40 }, (_, i) => `Paragraph ${i} ${'word '.repeat(10).trim()}`).join('\n\n');
    openai.server.script({ text: long });
    h.platform.failures.push({ ok: false, error: 'rate_limited', message: 'Too Many Requests', retryAfterMs: 50 });
    await h.platform.inject('write a lot');
    await h.gateway.idle();
    expect(h.platform.sent.length).toBeGreaterThan(3);
    for (const m of h.platform.sent) expect(m.text.length).toBeLessThanOrEqual(500);
    expect(h.platform.sent.map((m) => m.text).join('\n\n')).toBe(long);
  });

  it('[SILENT] answers are kept in the transcript but not sent', async () => {
    h = await startHarness(openai.server);
    openai.server.script({ text: '[SILENT]' });
    await h.platform.inject('nothing to say?');
    await h.gateway.idle();
    expect(h.platform.sent).toEqual([]);
    const session = h.store.sessions.activeByKey('memory:c1:dm');
    expect(h.store.transcripts.list(session?.id ?? '').at(-1)).toEqual({ role: 'assistant', content: '[SILENT]' });
  });

  it('restart between accepting and replying: exactly one reply per inbound message', async () => {
    h = await startHarness(openai.server);
    openai.server.script({ hang: true });
    await h.platform.inject('are you there?', {}, 'r1');
    await waitFor(() => chat().length === 1, { what: 'the turn at its model call' });
    const dbPath = h.dbPath;
    const platform = h.platform;
    await h.stop(); // the turn is cut off before any reply
    expect(platform.sent).toEqual([]);
    openai.server.script({ text: 'yes, after the restart' });
    h = await startHarness(openai.server, { dbPath, platform });
    await h.gateway.idle();
    await h.platform.inject('are you there?', {}, 'r1'); // the platform redelivers it too
    await h.gateway.idle();
    expect(platform.sent.map((m) => m.text)).toEqual(['yes, after the restart']);
  });
});

describe('inbound state', () => {
  it('writes the adapter state (the update offset) in the same transaction as the dedupe key', async () => {
    const harness = await startHarness(openai.server);
    try {
      openai.server.script({ text: 'ok' });
      await harness.gateway.accept(
        {
          kind: 'text',
          platform: 'memory',
          messageId: 'o1',
          text: 'hi',
          source: { platform: 'memory', chatId: 'c1', chatType: 'dm', userId: 'u1' },
          internal: false,
          receivedAt: 0,
          raw: null,
        },
        { state: { offset: '101' } },
      );
      expect(harness.store.platformState.get('memory', 'offset')).toBe('101');
      await harness.gateway.idle();
    } finally {
      await harness.stop();
    }
  });
});

describe('the send_message tool', () => {
  it('sends to the origin and the home channel, lists targets, and refuses unknown chats', async () => {
    const harness = await startHarness(openai.server, { env: { MEMORY_HOME_CHANNEL: 'home-chat' } });
    try {
      harness.tools.register(
        createSendMessageTool({ gateway: harness.gateway, env: { MEMORY_HOME_CHANNEL: 'home-chat' } }),
      );
      openai.server.script(
        {
          toolCalls: [
            { name: 'send_message', arguments: { action: 'send', target: 'origin', message: 'to origin' } },
            { name: 'send_message', arguments: { action: 'send', target: 'memory', message: 'to home' } },
            { name: 'send_message', arguments: { action: 'send', target: 'memory:stranger-chat', message: 'spam' } },
            { name: 'send_message', arguments: { action: 'list' } },
          ],
        },
        { text: 'done' },
      );
      await harness.platform.inject('notify everyone');
      await harness.gateway.idle();
      const sent = harness.platform.sent.map((m) => `${m.chatId}:${m.text}`);
      expect(sent.slice(0, 2).sort()).toEqual(['c1:to origin', 'home-chat:to home']); // parallel tool calls
      expect(sent[2]).toBe('c1:done');
      expect(sent).toHaveLength(3);
      const results = (openai.server.requests.at(-1)?.body as { messages: ChatMessage[] }).messages.filter(
        (m) => m.role === 'tool',
      );
      expect(JSON.parse(results[2]?.content ?? '{}').error).toMatch(/not a home channel or a chat I talk with/);
      expect(JSON.parse(results[3]?.content ?? '{}')).toMatchObject({
        platforms: [{ platform: 'memory', home_channel: 'home-chat' }],
      });
    } finally {
      await harness.stop();
    }
  });
});

describe('more commands', () => {
  it('/queue answers after the running turn; /status reports the session', async () => {
    const harness = await startHarness(openai.server);
    try {
      let answerFirst = () => {};
      const firstAnswered = new Promise<void>((resolve) => (answerFirst = resolve));
      let asked = 0;
      openai.server.respond(async () => {
        if (++asked > 1) return { text: 'queued answer' };
        await firstAnswered; // the first turn runs until the /queue is taken
        return { text: 'first answer' };
      });
      await harness.platform.inject('first');
      await waitFor(() => chat().length === 1, { what: 'the first turn at its model call' });
      await harness.platform.inject('/queue and then this');
      await waitFor(() => harness.platform.sent.length > 0, { what: 'the /queue reply' });
      answerFirst();
      await harness.gateway.idle();
      expect(harness.platform.sent.map((m) => m.text)).toEqual(['Queued.', 'first answer', 'queued answer']);
      const last = (openai.server.requests.at(-1)?.body as { messages: ChatMessage[] }).messages.at(-1);
      expect(last).toEqual({ role: 'user', content: 'and then this' });
      await harness.platform.inject('/status');
      await harness.gateway.idle();
      expect(harness.platform.sent.at(-1)?.text).toMatch(
        /Session: sess_\w+ \(4 messages\)\nRunning: no\nModel: test-model\nPlatforms: memory: connected/,
      );
    } finally {
      await harness.stop();
    }
  });
});

describe('approvals on the gateway surface', () => {
  it('a dangerous command nobody answers is denied at approvals.timeout_s; the hooks fire with surface gateway', async () => {
    const harness = await startHarness(openai.server, { settings: { approvalTimeoutMs: 200 } });
    try {
      for (const tool of createBuiltinTools({ cwd: process.cwd() })) harness.tools.register(tool);
      const seen: { hook: string; surface: string; choice?: string }[] = [];
      harness.hooks.register('pre_approval_request', (p) => void seen.push({ hook: 'pre', surface: p.surface }), {
        source: 'test',
        name: 'audit',
      });
      harness.hooks.register(
        'post_approval_response',
        (p) => void seen.push({ hook: 'post', surface: p.surface, choice: p.choice }),
        { source: 'test', name: 'audit' },
      );
      openai.server.script(
        { toolCalls: [{ name: 'terminal', arguments: { command: 'rm -rf /tmp/hermes-approval-test-nothing/*' } }] },
        { text: 'refused' },
      );
      await harness.platform.inject('wipe the disk');
      await harness.gateway.idle();
      expect(seen).toEqual([
        { hook: 'pre', surface: 'gateway' },
        { hook: 'post', surface: 'gateway', choice: 'timeout' },
      ]);
      const tool = (openai.server.requests.at(-1)?.body as { messages: ChatMessage[] }).messages.find(
        (m) => m.role === 'tool',
      );
      expect(JSON.parse(tool?.content ?? '{}')).toMatchObject({ denied: true });
    } finally {
      await harness.stop();
    }
  });
});
