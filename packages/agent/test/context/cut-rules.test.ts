// The compressor's cut rules: the head is the first exchange, the protected tail is kept, and no cut
// ever separates an assistant message with tool_calls from its tool results.
import type { ChatMessage, ContextEngineInput } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { compressorCut, headEnd, isSafeBoundary, messagesTokens, safeBoundary } from '../../src/index.js';

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
    const list = [user('a'), answer('b'), user('c'), answer('d'), user('e'), call('1'), result('1'), answer('f')];
    const cut = compressorCut(input(list, { protectLastN: 2 }));
    expect(cut).toEqual({ keepHead: 2, keepFrom: 5 });
    expect(list[cut?.keepFrom ?? 0]?.role).toBe('assistant');
  });

  it('nothing between head and tail: no compression', () => {
    expect(compressorCut(input([user('a'), answer('b'), user('c')], { protectLastN: 20 }))).toBeNull();
  });

  it('still too large with the protected tail: keeps fewer last messages, never splitting a tool group', () => {
    const big = 'x'.repeat(4000); // ~1000 tokens each
    const list = [user('a'), answer('b')];
    for (let i = 0; i < 6; i++) list.push(user(big), call(`c${i}`), result(`c${i}`), answer(big));
    const cut = compressorCut(input(list, { protectLastN: 20, budget: 3000, contextLength: 4000 }));
    expect(cut).not.toBeNull();
    const from = cut?.keepFrom ?? 0;
    expect(list[from]?.role).not.toBe('tool');
    expect(messagesTokens(list.slice(from))).toBeLessThanOrEqual(3000);
    expect(from).toBeLessThan(list.length);
  });
});
