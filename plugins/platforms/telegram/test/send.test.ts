// Sending through the fake Bot API with real grammy: HTML, the plain-text fallback, typed failures.
import type { PlatformAdapter } from '@hermes/protocol';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './harness.js';

let h: Harness;
let adapter: PlatformAdapter;
beforeAll(async () => {
  h = await startHarness();
  adapter = h.adapter();
});
afterAll(() => h.close());
beforeEach(() => h.fake.reset());

describe('telegram send', () => {
  it('sends formatted text as HTML with link previews off, and returns the message id', async () => {
    const result = await adapter.send({ chatId: '42', text: adapter.format('**hi** there'), formatted: true });
    expect(result).toEqual({ ok: true, messageIds: [`42:${h.fake.sent[0]?.message_id}`] });
    expect(h.fake.sent[0]).toMatchObject({ chat_id: 42, text: '<b>hi</b> there', parse_mode: 'HTML' });
    expect(h.fake.sent[0]?.body.link_preview_options).toEqual({ is_disabled: true });
  });

  it('sends plain text without a parse mode', async () => {
    const result = await adapter.send({ chatId: '42', text: 'a < b & c', formatted: false });
    expect(result.ok).toBe(true);
    expect(h.fake.sent[0]?.parse_mode).toBeUndefined();
    expect(h.fake.sent[0]?.text).toBe('a < b & c');
  });

  it('replies and posts into a topic', async () => {
    await adapter.send({ chatId: '-100', threadId: '77', replyToMessageId: '-100:12', text: 'ok', formatted: false });
    expect(h.fake.sent[0]).toMatchObject({ chat_id: -100, message_thread_id: 77, reply_to_message_id: 12 });
    expect(h.fake.sent[0]?.body.reply_parameters).toEqual({ message_id: 12, allow_sending_without_reply: true });
  });

  it('falls back once to plain text when Telegram cannot parse the HTML', async () => {
    const result = await adapter.send({ chatId: '42', text: '<b>bold</b> &amp; <oops>', formatted: true });
    expect(result.ok).toBe(true);
    const sends = h.fake.calls.filter((call) => call.method === 'sendMessage');
    expect(sends.map((call) => call.status)).toEqual([400, 200]);
    expect(h.fake.sent).toHaveLength(1);
    expect(h.fake.sent[0]?.text).toBe('bold & ');
    expect(h.fake.sent[0]?.parse_mode).toBeUndefined();
    expect(h.lines.some((line) => /resending as plain text/.test(line.msg ?? ''))).toBe(true);
  });

  it('does not fall back for plain text, nor more than once', async () => {
    h.fake.failNext('sendMessage', { status: 400, description: "Bad Request: can't parse entities: x" });
    h.fake.failNext('sendMessage', { status: 400, description: "Bad Request: can't parse entities: y" });
    const result = await adapter.send({ chatId: '42', text: '<b>x</b>', formatted: true });
    expect(result).toMatchObject({ ok: false, error: 'bad_format' });
    expect(h.fake.calls.filter((call) => call.method === 'sendMessage')).toHaveLength(2);
  });

  it('maps 429 to rate_limited with retryAfterMs from retry_after', async () => {
    h.fake.failNext('sendMessage', { status: 429, retryAfter: 1 });
    const result = await adapter.send({ chatId: '42', text: 'hi', formatted: false });
    expect(result).toEqual({
      ok: false,
      error: 'rate_limited',
      retryAfterMs: 1000,
      message: '429: Too Many Requests: retry after 1',
    });
  });

  it('maps a too long message to too_long', async () => {
    const result = await adapter.send({ chatId: '42', text: 'x'.repeat(5000), formatted: false });
    expect(result).toMatchObject({ ok: false, error: 'too_long' });
  });

  it.each([
    [{ status: 403, description: 'Forbidden: bot was blocked by the user' }, 'forbidden'],
    [{ status: 400, description: 'Bad Request: chat not found' }, 'not_found'],
    [{ status: 400, description: 'Bad Request: message thread not found' }, 'not_found'],
    [{ status: 400, description: 'Bad Request: wrong parameter' }, 'bad_format'],
    [{ status: 500 }, 'transient'],
    [{ status: 502 }, 'transient'],
    [{ network: true as const }, 'transient'],
  ])('maps %o to %s and never throws', async (failure, kind) => {
    h.fake.failNext('sendMessage', failure);
    const result = await adapter.send({ chatId: '42', text: 'hi', formatted: false });
    expect(result).toMatchObject({ ok: false, error: kind });
    expect(JSON.stringify(result)).not.toContain('TEST-token');
  });

  it('sends a typing action (into a topic too) and swallows its failures', async () => {
    await adapter.sendTyping?.('42');
    await adapter.sendTyping?.('-100', '77');
    h.fake.failNext('sendChatAction', { status: 403 });
    await expect(adapter.sendTyping?.('42')).resolves.toBeUndefined();
    const typing = h.fake.calls.filter((call) => call.method === 'sendChatAction');
    expect(typing.map((call) => call.body)).toEqual([
      { chat_id: '42', action: 'typing' },
      { chat_id: '-100', action: 'typing', message_thread_id: 77 },
      { chat_id: '42', action: 'typing' },
    ]);
  });

  it('declares its capabilities', () => {
    expect(adapter.capabilities).toEqual({
      maxMessageLength: 4096,
      formatting: 'html',
      editing: true,
      typing: true,
      threads: true,
      media: { maxUploadBytes: 50 * 1024 * 1024, maxPhotoBytes: 10 * 1024 * 1024 },
      reactions: true,
    });
    // the fake Bot API is on 127.0.0.1: not paced (the declared limits are TELEGRAM_CAPABILITIES.sendRate)
    expect(adapter.name).toBe('telegram');
  });
});
