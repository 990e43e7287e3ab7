// The clarify tool's questions in a chat (ChatClarify) against a recording adapter: one button
// per choice carrying `hact:clarify:<id>-<n>`, a press by the asked user answers with that choice
// and closes the prompt, another user's press is refused; a typed message of the asked user in
// that chat (and thread) answers, a number picking its choice; numbered choices in text where the
// platform has no buttons; the timeout and the turn's end settle without an answer.
import {
  type ActionPress,
  type ButtonMessage,
  type ClarifyAnswer,
  type MessageEvent,
  type PlatformAdapter,
  parseActionButtonData,
  silentLogger,
} from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { ChatClarify } from '../src/approvals/chat-clarify.js';

function event(text: string, source: Partial<MessageEvent['source']> = {}): MessageEvent {
  return {
    kind: 'text',
    platform: 'telegram',
    messageId: 'telegram:-100:7',
    source: { platform: 'telegram', chatId: '-100', chatType: 'group', userId: '42', ...source },
    internal: false,
    receivedAt: 0,
    raw: null,
    text,
  };
}

function setUp(options: { buttons?: boolean; timeoutMs?: number } = {}) {
  const posted: ButtonMessage[] = [];
  const closed: { messageId: string; text: string }[] = [];
  const texts: string[] = [];
  const adapter = {
    ...(options.buttons === false
      ? {}
      : {
          sendButtons: async (message: ButtonMessage) => {
            posted.push(message);
            return { ok: true as const, messageIds: [`-100:${posted.length}`] };
          },
        }),
    closeApproval: async (_chatId: string, messageId: string, text: string) => {
      closed.push({ messageId, text });
    },
  } as unknown as PlatformAdapter;
  const clarify = new ChatClarify({
    adapters: { get: () => adapter },
    sendText: async (_event, text) => texts.push(text),
    timeoutMs: options.timeoutMs ?? 60_000,
    logger: silentLogger,
  });
  return { clarify, posted, closed, texts };
}

/** The press of the button labelled `label` of the last prompt, by `userId`. */
function pressOf(posted: ButtonMessage[], label: string, userId = '42'): ActionPress {
  const data = posted.at(-1)?.buttons.find((b) => b.label === label)?.data;
  const parsed = parseActionButtonData(data);
  if (parsed === null) throw new Error(`no button ${label}`);
  return { platform: 'telegram', ...parsed, userId, chatId: '-100' };
}

const until = async (check: () => boolean) => {
  while (!check()) await new Promise((r) => setImmediate(r));
};

const question = { question: 'Which city?', choices: ['Rome', 'Paris'] };

describe('ChatClarify', () => {
  it("asks with one button per choice; another user's press is refused, the asked user's answers and closes it", async () => {
    const { clarify, posted, closed } = setUp();
    const answer = clarify.forTurn(event('plan a trip'))(question, new AbortController().signal);
    await until(() => posted.length === 1);
    expect(posted[0]?.text).toContain('Which city?');
    expect(posted[0]?.buttons.map((b) => b.label)).toEqual(['Rome', 'Paris']);
    expect(posted[0]?.buttons.every((b) => /^hact:clarify:[0-9a-f]+-[01]$/.test(b.data))).toBe(true);
    expect(await clarify.press(pressOf(posted, 'Paris', '43'))).toMatch(/^Not yours/);
    expect(clarify.waiting).toBe(1);
    expect(await clarify.press(pressOf(posted, 'Paris'))).toBe('Answered: Paris');
    expect(await answer).toEqual({ kind: 'answered', text: 'Paris', choice: 1, via: 'button' });
    await until(() => closed.length === 1);
    expect(closed[0]).toEqual({ messageId: '-100:1', text: '❓ Which city?\n→ Paris' });
    // a late press changes nothing
    expect(await clarify.press(pressOf(posted, 'Rome'))).toMatch(/no longer waiting/);
  });

  it("a typed message of the asked user in that chat and thread answers (a number picks a choice); others' do not", async () => {
    const { clarify, posted } = setUp();
    const ask = clarify.forTurn(event('plan a trip', { threadId: 't1' }));
    const first = ask(question, new AbortController().signal);
    await until(() => posted.length === 1);
    expect(clarify.answerTyped(event('Rome', { userId: '43', threadId: 't1' }))).toBe(false);
    expect(clarify.answerTyped(event('Rome'))).toBe(false); // the chat's other thread
    expect(clarify.answerTyped(event('  ', { threadId: 't1' }))).toBe(false);
    expect(clarify.answerTyped(event('2', { threadId: 't1' }))).toBe(true);
    expect(await first).toEqual({ kind: 'answered', text: 'Paris', choice: 1, via: 'text' });
    const second = ask({ question: 'Anything else?', choices: [] }, new AbortController().signal);
    await until(() => clarify.waiting === 1);
    expect(clarify.answerTyped(event('a window seat', { threadId: 't1' }))).toBe(true);
    expect(await second).toEqual({ kind: 'answered', text: 'a window seat', choice: null, via: 'text' });
    expect(clarify.answerTyped(event('hello again', { threadId: 't1' }))).toBe(false);
  });

  it('without buttons the choices are numbered in text, and a choice typed out picks it', async () => {
    const { clarify, posted, texts } = setUp({ buttons: false });
    const answer = clarify.forTurn(event('plan'))(question, new AbortController().signal);
    await until(() => texts.length === 1);
    expect(posted).toEqual([]);
    expect(texts[0]).toContain('1. Rome\n2. Paris');
    expect(clarify.answerTyped(event('paris'))).toBe(true);
    expect(await answer).toEqual({ kind: 'answered', text: 'Paris', choice: 1, via: 'text' });
  });

  it("no answer in time settles with the timeout and closes the prompt; the turn's end cancels", async () => {
    const { clarify, posted, closed } = setUp({ timeoutMs: 30 });
    const timedOut: ClarifyAnswer = await clarify.forTurn(event('x'))(question, new AbortController().signal);
    expect(timedOut).toEqual({ kind: 'timeout', timeoutMs: 30 });
    await until(() => closed.length === 1);
    expect(closed[0]?.text).toBe('❓ Which city?\nNo answer in time: going on without it.');
    const turn = new AbortController();
    const slow = setUp();
    const cancelled = slow.clarify.forTurn(event('x'))(question, turn.signal);
    await until(() => slow.posted.length === 1);
    turn.abort();
    expect(await cancelled).toEqual({ kind: 'cancelled' });
    expect(slow.clarify.waiting).toBe(0);
    expect(posted).toHaveLength(1);
  });
});
