// Token estimates: measured once per message object, calibrated per model from reported prompt tokens.
import type { ChatMessage } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { messagesTokens, messageTokens, TokenCalibration, textTokens } from '../../src/index.js';

describe('token estimates', () => {
  it('about four characters a token plus a per-message overhead; tool calls count', () => {
    expect(textTokens('x'.repeat(400))).toBe(100);
    const m: ChatMessage = { role: 'user', content: 'x'.repeat(400) };
    expect(messageTokens(m)).toBe(104);
    const call: ChatMessage = {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c', type: 'function', function: { name: 'echo', arguments: 'y'.repeat(96) } }],
    };
    expect(messageTokens(call)).toBeGreaterThan(25);
  });

  it('a message is measured once (its estimate is cached by identity)', () => {
    const m = { role: 'user' as const, content: 'x'.repeat(40) };
    expect(messageTokens(m)).toBe(14);
    m.content = 'x'.repeat(4000); // a mutated message keeps its first measure: messages are never mutated
    expect(messageTokens(m)).toBe(14);
    expect(messagesTokens([m, m])).toBe(28);
  });

  it('calibration learns reported ÷ estimated per model and applies it', () => {
    const c = new TokenCalibration();
    expect(c.apply('a', 1000)).toBe(1000);
    c.observe('a', 1000, 1500);
    expect(c.ratio('a')).toBe(1.5);
    expect(c.apply('a', 1000)).toBe(1500);
    c.observe('a', 1000, 500);
    expect(c.ratio('a')).toBe(1); // smoothed: the mean of the old ratio and the new one
    expect(c.ratio('b')).toBe(1); // per model
    c.observe('b', 0, 100); // nothing estimated: ignored
    c.observe('b', 100, 100_000); // absurd: clamped
    expect(c.ratio('b')).toBe(4);
  });
});
