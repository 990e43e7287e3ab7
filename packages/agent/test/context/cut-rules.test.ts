// The compressor's cut rules: the head is the first exchange, the protected tail is kept, and no cut
// ever separates an assistant message with tool_calls from its tool results.
import type { ChatMessage, ContextEngineInput } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import {
  compressorCut,
  headEnd,
  isSafeBoundary,
  lastExchangesStart,
  messagesTokens,
  safeBoundary,
} from '../../src/index.js';

const user = (content: string): ChatMessage => ({ role: 'user', content });
const answer = (content: string): ChatMessage => ({ role: 'assistant', content });
const call = (id: string): ChatMessage => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id, type: 'function', function: { name: 'echo', arguments: '{}' } }],
});
const result = (id: string): ChatMessage => ({ role: 'tool', content: 'ok', tool_call_id: id });

function input(messages: ChatMessage[], over: Partial<ContextEngineInput> = {}): ContextEngineInput {
  return {
    sessionId: 's',
    model: 'm',
    messages,
    contextLength: 100_000,
    budget: 75_000,
    protectLastN: 3,
    fixedTokens: 0,
    force: true,
    estimateTokens: (list) => messagesTokens(list),
    summarize: async () => 'summary',
    signal: new AbortController().signal,
    ...over,
  };
}

describe('cut rules', () => {
  it('the head is the first user message through the first plain answer', () => {
    expect(headEnd([user('a'), answer('b'), user('c')])).toBe(2);
    expect(headEnd([user('a'), call('1'), result('1'), answer('b'), user('c')])).toBe(4);
    expect(headEnd([user('a'), user('b')])).toBe(1);
    expect(headEnd([answer('x')])).toBe(0);
  });

  it('a boundary before a tool message is never safe; safeBoundary moves it back to the assistant call', () => {
    const list = [user('a'), answer('b'), user('c'), call('1'), result('1'), result('2'), user('d')];
    expect(isSafeBoundary(list, 4)).toBe(false);
    expect(isSafeBoundary(list, 5)).toBe(false);
    expect(safeBoundary(list, 5, 2)).toBe(3);
    expect(safeBoundary(list, 6, 2)).toBe(6);
    // cannot move back past the minimum: moves forward past the results instead
    expect(safeBoundary(list, 4, 4)).toBe(6);
  });

  it('the protected tail starting inside a tool group keeps the whole group', () => {
    const list = [user('a'), answer('b'), user('c'), call('1'), result('1'), answer('d'), user('e'), answer('f')];
    list.push(user('g'));
    const cut = compressorCut(input(list, { protectLastN: 5 }));
    expect(cut).toEqual({ keepHead: 2, keepFrom: 3 });
    expect(list[cut?.keepFrom ?? 0]?.role).toBe('assistant');
  });

  it('nothing between head and tail: no compression', () => {
    expect(compressorCut(input([user('a'), answer('b'), user('c')], { protectLastN: 20 }))).toBeNull();
  });

  it('the last two exchanges are never summarized, however short protect_last_n is', () => {
    const list = [user('a'), answer('b'), user('c'), answer('d'), user('e'), call('1'), result('1')];
    list.push(answer('f'), user('g'));
    // the last two exchanges: e (with its tool group) and g
    expect(lastExchangesStart(list)).toBe(4);
    expect(compressorCut(input(list, { protectLastN: 1 }))).toEqual({ keepHead: 2, keepFrom: 4 });
    // with only the head before them there is nothing to summarize
    expect(compressorCut(input(list.slice(2), { protectLastN: 1 }))).toBeNull();
  });

  it('over the budget: the head folds into the summary before the last two exchanges give way', () => {
    const long = 'x'.repeat(2000); // ~500 tokens each
    const list = [user(long), answer(long)];
    for (let i = 0; i < 4; i++) list.push(user(long), answer(long));
    // budget 3000 with a 600-token summary share: the last two exchanges (~2000 tokens) and the head
    // (~1000) do not fit; without the head they do
    const cut = compressorCut(input(list, { protectLastN: 1, budget: 3000, contextLength: 4000 }));
    expect(cut).toEqual({ keepHead: 0, keepFrom: list.length - 4 });
  });

  it('the last two exchanges give way only past the window, never splitting a tool group', () => {
    const big = 'x'.repeat(4000); // ~1000 tokens each
    const list = [user('a'), answer('b')];
    for (let i = 0; i < 6; i++) list.push(user(big), call(`c${i}`), result(`c${i}`), answer(big));
    const cut = compressorCut(input(list, { protectLastN: 20, budget: 3000, contextLength: 4000 }));
    expect(cut).not.toBeNull();
    const from = cut?.keepFrom ?? 0;
    expect(list[from]?.role).not.toBe('tool');
    // over the budget (the two exchanges are ~4,000 tokens) but inside the window with the summary's share
    expect(messagesTokens(list.slice(from))).toBeGreaterThan(3000 - 600);
    expect(messagesTokens(list.slice(from)) + 600).toBeLessThanOrEqual(4000);
    expect(from).toBeLessThan(list.length);
  });
});
