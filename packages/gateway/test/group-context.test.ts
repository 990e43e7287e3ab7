import type { MessageEvent } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { channelPrompt } from '../src/intake/channel-settings.js';
import { GROUP_CONTEXT_MAX_CHARS, GroupContext } from '../src/intake/group-context.js';

const message = (chatId: string, text: string, extra: Partial<MessageEvent['source']> = {}): MessageEvent => ({
  kind: 'text',
  platform: 'telegram',
  messageId: text,
  text,
  internal: false,
  receivedAt: 0,
  raw: null,
  source: { platform: 'telegram', chatId, chatType: 'group', userId: 'u1', userName: 'Ann', ...extra },
});

describe('GroupContext', () => {
  it('keeps the last messages per channel and thread, cut, and hands them on once', () => {
    const context = new GroupContext(2);
    context.record(message('g', 'one'));
    context.record(message('g', 'two'));
    context.record(message('g', 'x'.repeat(GROUP_CONTEXT_MAX_CHARS + 10)));
    context.record(message('g', 'in a topic', { threadId: '7' }));
    const withIt = context.withContext(message('g', '@bot?'), '@bot?');
    expect(withIt).toBe(
      `[Earlier in this group, not addressed to you:]\nAnn: two\nAnn: ${'x'.repeat(GROUP_CONTEXT_MAX_CHARS)}…\n[The message to you:]\n@bot?`,
    );
    expect(context.withContext(message('g', 'again'), 'again')).toBe('again');
    expect(context.withContext(message('g', 'topic', { threadId: '7' }), 'topic')).toContain('Ann: in a topic');
  });

  it('keeps nothing from direct messages or with 0 messages, and a bounded number of channels', () => {
    const off = new GroupContext(0);
    off.record(message('g', 'hello'));
    expect(off.withContext(message('g', 'q'), 'q')).toBe('q');
    const dm = new GroupContext(5);
    dm.record(message('d', 'secret', { chatType: 'dm' }));
    expect(dm.withContext(message('d', 'q', { chatType: 'group' }), 'q')).toBe('q');
    const few = new GroupContext(5, 2);
    few.record(message('a', 'in a'));
    few.record(message('b', 'in b'));
    few.record(message('c', 'in c'));
    expect(few.withContext(message('a', 'q'), 'q')).toBe('q');
    expect(few.withContext(message('c', 'q'), 'q')).toContain('in c');
  });
});

describe('channelPrompt (gateway.channel_prompts)', () => {
  it("gives a thread's prompt before its chat's, the chat's to its other messages, nothing elsewhere", () => {
    const prompts = { 'telegram:g': 'the chat', 'telegram:g:7': 'the topic' };
    expect(channelPrompt(prompts, message('g', 'x', { threadId: '7' }))).toBe('the topic');
    expect(channelPrompt(prompts, message('g', 'x', { threadId: '8' }))).toBe('the chat');
    expect(channelPrompt(prompts, message('g', 'x'))).toBe('the chat');
    expect(channelPrompt(prompts, message('other', 'x'))).toBeUndefined();
    expect(channelPrompt(undefined, message('g', 'x'))).toBeUndefined();
  });
});
