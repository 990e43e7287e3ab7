// Sending through the fake REST API with real discord.js: replies, typing, the 2000 limit, 429s, typed failures.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PlatformAdapter } from '@hermes/protocol';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADA, type Harness, startHarness } from './harness.js';

let h: Harness;
let adapter: PlatformAdapter;
let general: string;
beforeAll(async () => {
  h = await startHarness();
  adapter = h.adapter({ settings: { rate_limit_wait_max_ms: 500 } });
  general = h.fake.textChannelIds[0] ?? '';
});
afterAll(() => h.close());
beforeEach(() => h.fake.reset());

const sends = () => h.fake.calls.filter((call) => call.route === 'createMessage');

describe('discord send', () => {
  it('posts the text with no pings and no link previews, and returns the message id', async () => {
    const result = await adapter.send({ chatId: general, text: adapter.format('**hi** @everyone'), formatted: true });
    expect(result).toEqual({ ok: true, messageIds: [h.fake.sent[0]?.id] });
    expect(h.fake.sent[0]?.body).toEqual({
      content: '**hi** @everyone',
      allowed_mentions: { parse: [], replied_user: true },
      flags: 4,
    });
  });

  it('threads a reply under the user message, and still sends when that message is gone', async () => {
    const question = h.fake.guildMessage({ user: ADA, content: 'question' });
    await adapter.send({ chatId: general, text: 'answer', formatted: true, replyToMessageId: question.id });
    expect(h.fake.sent[0]?.message_reference).toEqual({ message_id: question.id, fail_if_not_exists: false });
    const gone = await adapter.send({ chatId: general, text: 'late', formatted: true, replyToMessageId: '123' });
    expect(gone.ok).toBe(true);
    expect(h.fake.sent).toHaveLength(2);
  });

  it('passes the idempotency key as an enforced nonce: a repeated send posts once and returns the same message', async () => {
    const message = { chatId: general, text: 'only once', formatted: true, idempotencyKey: 'k1-mi3x9z' };
    const first = await adapter.send(message);
    const again = await adapter.send(message);
    expect(h.fake.sent.map((m) => m.content)).toEqual(['only once']);
    expect(h.fake.sent[0]?.body).toMatchObject({ nonce: 'k1-mi3x9z', enforce_nonce: true });
    expect(h.fake.nonceHits).toBe(1);
    expect(again).toEqual(first);
    // another key is another message
    await adapter.send({ ...message, idempotencyKey: 'k2-mi3x9z' });
    expect(h.fake.sent).toHaveLength(2);
  });

  it('posts a thread answer into the thread channel', async () => {
    const threadId = h.fake.threadId;
    await adapter.send({ chatId: threadId, threadId, text: 'in thread', formatted: true });
    expect(h.fake.sent[0]?.channel_id).toBe(threadId);
  });

  it('keeps link previews when suppress_embeds is false', async () => {
    const previews = h.adapter({ settings: { suppress_embeds: false } });
    await previews.send({ chatId: general, text: 'https://example.org', formatted: true });
    expect(h.fake.sent[0]?.body.flags).toBeUndefined();
  });

  it('waits out a 429 inside discord.js and delivers exactly once', async () => {
    h.fake.rateLimitNextSends(1, 80);
    const started = performance.now();
    const result = await adapter.send({ chatId: general, text: 'once', formatted: true });
    expect(result.ok).toBe(true);
    expect(performance.now() - started).toBeGreaterThanOrEqual(80);
    expect(sends().map((call) => call.status)).toEqual([429, 200]);
    expect(h.fake.sent.map((message) => message.content)).toEqual(['once']);
  });

  it('hands a 429 longer than rate_limit_wait_max_ms to the gateway as rate_limited, unsent', async () => {
    h.fake.rateLimitNextSends(1, 2_000);
    const result = await adapter.send({ chatId: general, text: 'later', formatted: true });
    expect(result).toMatchObject({ ok: false, error: 'rate_limited' });
    expect(result.ok === false && result.retryAfterMs).toBeGreaterThanOrEqual(2_000);
    expect(h.fake.sent).toEqual([]);
    expect(sends()).toHaveLength(1);
  });

  it('maps a text over 2000 characters (Discord 50035) to too_long', async () => {
    const result = await adapter.send({ chatId: general, text: 'x'.repeat(2001), formatted: false });
    expect(result).toMatchObject({ ok: false, error: 'too_long' });
    expect(result.ok === false && result.message).toMatch(/^400 50035: Invalid Form Body/);
    expect((await adapter.send({ chatId: general, text: 'x'.repeat(2000), formatted: false })).ok).toBe(true);
  });

  it.each([
    [{ status: 403, code: 50013, message: 'Missing Permissions' }, 'forbidden'],
    [{ status: 403, code: 50007, message: 'Cannot send messages to this user' }, 'forbidden'],
    [{ status: 404, code: 10003, message: 'Unknown Channel' }, 'not_found'],
    [{ status: 400, code: 50006, message: 'Cannot send an empty message' }, 'bad_format'],
    [{ status: 500 }, 'transient'],
    [{ status: 502 }, 'transient'],
    [{ network: true as const }, 'transient'],
  ])('maps %o to %s, sends once and never throws', async (failure, kind) => {
    h.fake.failNext('createMessage', failure);
    const result = await adapter.send({ chatId: general, text: 'hi', formatted: true });
    expect(result).toMatchObject({ ok: false, error: kind });
    expect(sends()).toHaveLength(1);
    expect(JSON.stringify(result)).not.toContain('TEST-discord-token');
  });

  it('maps a channel it does not know to not_found', async () => {
    const result = await adapter.send({ chatId: '1300000000000000099', text: 'hi', formatted: true });
    expect(result).toMatchObject({ ok: false, error: 'not_found', message: '404 10003: Unknown Channel' });
  });

  it('sends typing to the chat (the thread channel in a thread) and swallows its failures', async () => {
    await adapter.sendTyping?.(general);
    await adapter.sendTyping?.(general, h.fake.threadId);
    h.fake.failNext('typing', { status: 403 });
    await expect(adapter.sendTyping?.(general)).resolves.toBeUndefined();
    const typing = h.fake.calls.filter((call) => call.route === 'typing');
    expect(typing.map((call) => [call.path, call.status])).toEqual([
      [`/channels/${general}/typing`, 204],
      [`/channels/${h.fake.threadId}/typing`, 204],
      [`/channels/${general}/typing`, 403],
    ]);
  });

  it('declares its capabilities', () => {
    expect(adapter.capabilities).toEqual({
      maxMessageLength: 2000,
      formatting: 'markdown',
      editing: true,
      typing: true,
      threads: true,
      media: { maxUploadBytes: 10 * 1024 * 1024 },
      reactions: true,
    });
    // the fake REST API is on 127.0.0.1: not paced (the declared limits are DISCORD_CAPABILITIES.sendRate)
    expect(adapter.name).toBe('discord');
  });
});

describe('discord sendMedia', () => {
  it('uploads the file as an attachment with an enforced nonce: a repeated upload posts once', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'hermes-dc-media-')), 'chart.png');
    writeFileSync(path, 'png bytes');
    const file = {
      chatId: general,
      path,
      fileName: 'chart.png',
      mimeType: 'image/png',
      kind: 'image' as const,
      size: 9,
    };
    const first = await adapter.sendMedia?.({ ...file, idempotencyKey: 'm1-abc' });
    const again = await adapter.sendMedia?.({ ...file, idempotencyKey: 'm1-abc', mayRepeat: true });
    expect(first).toEqual({ ok: true, messageIds: [h.fake.sent[0]?.id] });
    expect(again).toEqual(first);
    expect(h.fake.sent).toHaveLength(1);
    expect(h.fake.sent[0]?.files).toEqual([
      expect.objectContaining({ fileName: 'chart.png', contentType: 'image/png', size: 9 }),
    ]);
    expect(h.fake.sent[0]?.body).toMatchObject({ content: '', nonce: 'm1-abc', enforce_nonce: true });
    expect(h.fake.nonceHits).toBe(1);
  });
});
