// Sending: chat.postMessage in the right thread, mrkdwn or escaped plain text, typed failures, and a
// 429 that the gateway's delivery waits out with exactly one message posted in the end.
import { join } from 'node:path';
import { deliver, idempotencyKey, resendPending } from '@hermes/gateway';
import type { PlatformAdapter } from '@hermes/protocol';
import { asyncSqliteStore, openStore } from '@hermes/store';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SLACK_CAPABILITIES } from '../adapter.js';
import { type Harness, startHarness } from './harness.js';

let h: Harness;
let adapter: PlatformAdapter;

beforeAll(async () => {
  h = await startHarness();
  adapter = h.adapter();
  h.fake.addChannel({ id: 'C1', name: 'general', type: 'channel' });
  h.fake.addChannel({ id: 'D1', name: 'D1', type: 'im' });
  h.fake.addChannel({ id: 'CARCHIVED', name: 'old', type: 'channel', isArchived: true });
  h.fake.addChannel({ id: 'CNOTMEMBER', name: 'private', type: 'group', isMember: false });
});
afterAll(() => h.close());
beforeEach(() => h.fake.reset());

const postCalls = () => h.fake.calls.filter((call) => call.method === 'chat.postMessage');
const lookups = () => h.fake.calls.filter((call) => call.method.startsWith('conversations.'));

describe('slack send', () => {
  it('declares its capabilities: 4,000 characters, mrkdwn, threads, no typing indicator', () => {
    // the fake Web API is on 127.0.0.1: not paced (the declared limits stay in SLACK_CAPABILITIES.sendRate)
    const { sendRate: _declared, ...unpaced } = SLACK_CAPABILITIES;
    expect(adapter.capabilities).toEqual(unpaced);
    expect(SLACK_CAPABILITIES).toMatchObject({ maxMessageLength: 4_000, formatting: 'mrkdwn', typing: false });
    expect(adapter.sendTyping).toBeUndefined();
  });

  it('posts formatted text as mrkdwn into the thread, returning channel:ts', async () => {
    const result = await adapter.send({ chatId: 'C1', threadId: '1712345680.000200', text: '*hi*', formatted: true });
    const post = h.fake.posted[0];
    expect(result).toEqual({ ok: true, messageIds: [`C1:${post?.ts}`] });
    expect(post).toMatchObject({ channel: 'C1', text: '*hi*', thread_ts: '1712345680.000200', mrkdwn: true });
    expect(post?.params).toMatchObject({ unfurl_links: 'false', unfurl_media: 'false' });
  });

  it('answers in the thread of replyToMessageId when no thread is given, and at top level in a DM', async () => {
    await adapter.send({ chatId: 'C1', text: 'x', formatted: true, replyToMessageId: '1712345690.000300' });
    await adapter.send({ chatId: 'D1', text: 'y', formatted: true });
    expect(h.fake.posted.map((post) => post.thread_ts)).toEqual(['1712345690.000300', undefined]);
  });

  it('sends plain text escaped with mrkdwn off, so nothing in it becomes a link or a mention', async () => {
    await adapter.send({ chatId: 'C1', text: 'a < b & <!channel> *x*', formatted: false });
    expect(h.fake.posted[0]).toMatchObject({ text: 'a &lt; b &amp; &lt;!channel&gt; *x*', mrkdwn: false });
  });

  it('answers 429 as rate_limited with Retry-After, after exactly one attempt (the SDK does not retry)', async () => {
    h.fake.failNext('chat.postMessage', { rateLimited: 2 });
    const result = await adapter.send({ chatId: 'C1', text: 'hi', formatted: true });
    expect(result).toMatchObject({ ok: false, error: 'rate_limited', retryAfterMs: 2_000 });
    expect(await adapter.send({ chatId: 'C1', text: 'next', formatted: true })).toMatchObject({ ok: true });
    expect(postCalls()).toHaveLength(2); // the refused one once, then the next
    expect(h.fake.posted.map((post) => post.text)).toEqual(['next']);
  });

  it('is delivered exactly once when the gateway waits out a 429', async () => {
    h.fake.failNext('chat.postMessage', { rateLimited: 1 });
    const waits: number[] = [];
    const store = openStore(join(h.cacheDir, 'state.db'));
    try {
      const result = await deliver(
        {
          adapters: new Map([['slack', adapter]]),
          commit: asyncSqliteStore(store).commit,
          logger: h.context().logger,
          sleep: async (ms) => void waits.push(ms),
        },
        { platform: 'slack', chatId: 'C1', threadId: '1712345680.000200' },
        '**answer**',
      );
      expect(result).toEqual({ sent: 1, failed: 0, errors: [] });
    } finally {
      store.close();
    }
    expect(waits).toEqual([1_000]);
    expect(postCalls()).toHaveLength(2);
    expect(h.fake.posted.map((post) => [post.text, post.thread_ts])).toEqual([['*answer*', '1712345680.000200']]);
  });

  it('every post carries its idempotency key as message metadata; a first try looks nothing up', async () => {
    await adapter.send({ chatId: 'C1', text: 'hi', formatted: true, idempotencyKey: 'k1.abc' });
    expect(h.fake.posted[0]?.metadata).toEqual({ event_type: 'hermes_send', event_payload: { key: 'k1.abc' } });
    expect(lookups()).toEqual([]);
  });

  it.each([
    ['at top level', undefined],
    ['in a thread', '1712345680.000200'],
  ])('a send that may repeat finds the earlier post with its key %s and does not post again', async (_, threadId) => {
    const where = { chatId: 'C1', formatted: true, ...(threadId ? { threadId } : {}) };
    const first = await adapter.send({ ...where, text: 'answer', idempotencyKey: 'k2.abc' });
    await adapter.send({ ...where, text: 'another answer', idempotencyKey: 'k3.abc' });
    const again = await adapter.send({ ...where, text: 'answer', idempotencyKey: 'k2.abc', mayRepeat: true });
    expect(again).toEqual(first);
    expect(h.fake.posted.map((post) => post.text)).toEqual(['answer', 'another answer']);
    expect(lookups().map((call) => call.method)).toEqual([
      threadId ? 'conversations.replies' : 'conversations.history',
    ]);
  });

  it('a send that may repeat posts when no earlier post has its key, or when the lookup fails', async () => {
    await adapter.send({ chatId: 'C1', text: 'other', formatted: true, idempotencyKey: 'k4.abc' });
    await adapter.send({ chatId: 'C1', text: 'new', formatted: true, idempotencyKey: 'k5.abc', mayRepeat: true });
    h.fake.failNext('conversations.history', { error: 'missing_scope' });
    await adapter.send({ chatId: 'C1', text: 'unscoped', formatted: true, idempotencyKey: 'k6.abc', mayRepeat: true });
    expect(h.fake.posted.map((post) => post.text)).toEqual(['other', 'new', 'unscoped']);
    expect(lookups()).toHaveLength(2);
  });

  it('crash recovery does not post again what a process posted before dying unmarked; a 5xx retry neither', async () => {
    const store = openStore(join(h.cacheDir, 'recovery.db'));
    try {
      const options = {
        adapters: new Map([['slack', adapter]]),
        commit: asyncSqliteStore(store).commit,
        logger: h.context().logger,
      };
      const [row] = store.outbox.enqueue([
        {
          inboxId: null,
          platform: 'slack',
          chatId: 'C1',
          threadId: null,
          chunkIndex: 0,
          text: 'once',
          formatted: true,
        },
      ]);
      if (!row) throw new Error('no row');
      // the process that wrote the row posted it, then died before the delivered mark
      await adapter.send({ chatId: 'C1', text: 'once', formatted: true, idempotencyKey: idempotencyKey(row) });
      const pending = store.outbox.pending({ platform: 'slack' });
      expect(pending).toHaveLength(1);
      const result = await resendPending(options, { platform: 'slack', chatId: 'C1' }, pending);
      expect(result).toEqual({ sent: 1, failed: 0, errors: [] });
      expect(store.outbox.pending({ platform: 'slack' })).toEqual([]);
      // deliver: the first try is answered 503 (the fake posts nothing then), the retry looks first and posts
      h.fake.failNext('chat.postMessage', { status: 503 });
      const waits: number[] = [];
      const sent = await deliver(
        { ...options, sleep: async (ms) => void waits.push(ms) },
        { platform: 'slack', chatId: 'C1' },
        'twice tried',
      );
      expect(sent).toEqual({ sent: 1, failed: 0, errors: [] });
      expect(waits).toHaveLength(1);
    } finally {
      store.close();
    }
    expect(h.fake.posted.map((post) => post.text)).toEqual(['once', 'twice tried']);
    expect(lookups()).toHaveLength(2);
  });

  it.each([
    ['too long text', 'too_long', { chatId: 'C1', text: 'x'.repeat(40_001) }],
    ['an unknown channel', 'not_found', { chatId: 'CNOPE', text: 'hi' }],
    ['an archived channel', 'forbidden', { chatId: 'CARCHIVED', text: 'hi' }],
    ['a channel the bot is not in', 'forbidden', { chatId: 'CNOTMEMBER', text: 'hi' }],
  ])('maps %s to %s', async (_, kind, message) => {
    const result = await adapter.send({ ...message, formatted: true });
    expect(result).toMatchObject({ ok: false, error: kind });
  });

  it.each([
    ['invalid_auth', 'forbidden', { error: 'invalid_auth' }],
    ['no_text', 'bad_format', { error: 'no_text' }],
    ['an unknown platform error', 'transient', { error: 'something_new' }],
    ['HTTP 503', 'transient', { status: 503 }],
    ['a dropped connection', 'transient', { network: true }],
  ] as const)('maps %s to %s, without a retry by the SDK', async (_, kind, failure) => {
    h.fake.failNext('chat.postMessage', failure);
    const result = await adapter.send({ chatId: 'C1', text: 'hi', formatted: true });
    expect(result).toMatchObject({ ok: false, error: kind });
    expect(postCalls()).toHaveLength(1);
  });
});
