// The outbound rate limit in the delivery path, on a fake clock: sends within the platform's
// published limits go at once; past them delivery waits (never drops) until the bucket allows it.

import { capabilitiesFor, readSendRateLimit } from '@hermes/plugin-sdk';
import type { PlatformAdapter, SendRateLimits } from '@hermes/protocol';
import { asyncSqliteStore, openStore } from '@hermes/store';
import { describe, expect, it } from 'vitest';
import { DISCORD_CAPABILITIES } from '../../../plugins/platforms/discord/index.js';
import { SLACK_CAPABILITIES } from '../../../plugins/platforms/slack/index.js';
import { TELEGRAM_CAPABILITIES } from '../../../plugins/platforms/telegram/index.js';
import { deliver } from '../src/delivery/deliver.js';
import { CHAT_BUCKETS_SWEEP_AT, SendRateLimiter } from '../src/delivery/send-rate-limiter.js';

const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, fatal() {}, child: () => silent };
// the values the platform plugins declare
const TELEGRAM: SendRateLimits = {
  perChat: { count: 1, perMs: 1_000, burst: 3 },
  global: { count: 26, perMs: 1_000, burst: 5 },
};
const DISCORD: SendRateLimits = {
  perChat: { count: 3, perMs: 5_000, burst: 3 },
  global: { count: 46, perMs: 1_000, burst: 5 },
};

function clock() {
  const c = { t: 1_000_000, now: () => c.t };
  return c;
}

/** The most sends in any half-open window of `ms`. */
function maxInWindow(times: number[], ms: number): number {
  return Math.max(...times.map((t) => times.filter((u) => u >= t && u < t + ms).length));
}

/** Sends `n` messages to one chat, each as soon as the limiter allows (the fake clock moves with the waits). */
async function sendAll(limiter: SendRateLimiter, c: { t: number }, limits: SendRateLimits, chats: string[]) {
  const sleep = async (ms: number) => {
    c.t += ms;
  };
  const times: number[] = [];
  for (const chat of chats) {
    await limiter.wait('p', chat, limits, sleep);
    times.push(c.t);
  }
  return times;
}

describe('SendRateLimiter', () => {
  it('telegram per chat: a burst of 3 at once, then one a second; another chat is not held up', () => {
    const c = clock();
    const limiter = new SendRateLimiter(c.now);
    const waits = Array.from({ length: 6 }, () => limiter.reserveChat('p', 'chat-1', TELEGRAM.perChat));
    expect(waits).toEqual([0, 0, 0, 1_000, 2_000, 3_000]);
    expect(limiter.reserveChat('p', 'chat-2', TELEGRAM.perChat)).toBe(0);
    expect(limiter.reserveGlobal('p', TELEGRAM.global)).toBe(0);
    // after a quiet while the burst is back
    c.t += 10_000;
    expect(Array.from({ length: 3 }, () => limiter.reserveChat('p', 'chat-1', TELEGRAM.perChat))).toEqual([0, 0, 0]);
  });

  it('telegram global: 60 chats at once go out evenly, never more than 30 in any second', async () => {
    const c = clock();
    const limiter = new SendRateLimiter(c.now);
    const start = c.t;
    const times = await sendAll(
      limiter,
      c,
      TELEGRAM,
      Array.from({ length: 60 }, (_, i) => `chat-${i}`),
    );
    expect(maxInWindow(times, 1_000)).toBe(30);
    expect((times.at(-1) ?? 0) - start).toBeLessThanOrEqual(2_500);
    expect(times.slice(0, 5)).toEqual(Array(5).fill(start));
  });

  it('discord per channel: 3 at once, then spaced so that no 5 s window holds more than 5', async () => {
    const c = clock();
    const limiter = new SendRateLimiter(c.now);
    const start = c.t;
    const times = await sendAll(limiter, c, DISCORD, Array(12).fill('channel'));
    expect(times.slice(0, 3)).toEqual([start, start, start]);
    expect(maxInWindow(times, 5_000)).toBe(5);
    const global = maxInWindow(
      await sendAll(
        limiter,
        c,
        DISCORD,
        Array.from({ length: 120 }, (_, i) => `c${i}`),
      ),
      1_000,
    );
    // at most 50 a second, and not much fewer (waits are rounded up to whole ms)
    expect(global).toBeLessThanOrEqual(50);
    expect(global).toBeGreaterThanOrEqual(48);
  });

  it('no limits declared: never waits; idle chat buckets are swept', async () => {
    const c = clock();
    const limiter = new SendRateLimiter(c.now);
    const times = await sendAll(limiter, c, {}, Array(100).fill('x'));
    expect(new Set(times).size).toBe(1);
    for (let i = 0; i < CHAT_BUCKETS_SWEEP_AT; i++) limiter.reserveChat('p', `c${i}`, TELEGRAM.perChat);
    expect(limiter.chatBuckets).toBe(CHAT_BUCKETS_SWEEP_AT);
    c.t += 2_000;
    limiter.reserveChat('p', 'new', TELEGRAM.perChat);
    expect(limiter.chatBuckets).toBe(1);
  });

  it('a send that may go now gets nothing to await; one over the limit gets the wait', async () => {
    const c = clock();
    const limiter = new SendRateLimiter(c.now);
    const slept: number[] = [];
    const sleep = async (ms: number) => {
      slept.push(ms);
      c.t += ms;
    };
    expect(limiter.wait('p', 'c', undefined, sleep)).toBeUndefined();
    // telegram per chat: a burst of 3, the fourth waits a second
    for (let i = 0; i < 3; i++) expect(limiter.wait('p', 'c', TELEGRAM, sleep)).toBeUndefined();
    const fourth = limiter.wait('p', 'c', TELEGRAM, sleep);
    expect(fourth).toBeInstanceOf(Promise);
    await fourth;
    expect(slept).toEqual([1_000]);
  });
});

describe('delivery keeps the platform send rate', () => {
  it('a 6-chunk answer to one telegram chat: 3 at once, then one a second; all sent, in order', async () => {
    const c = clock();
    const sent: { at: number; text: string }[] = [];
    const adapter: PlatformAdapter = {
      name: 'tg',
      capabilities: {
        maxMessageLength: 120,
        formatting: 'plain',
        editing: false,
        typing: false,
        threads: false,
        sendRate: TELEGRAM,
      },
      start: async () => {},
      stop: async () => {},
      send: async (m) => {
        sent.push({ at: c.t, text: m.text });
        return { ok: true, messageIds: [String(sent.length)] };
      },
      format: (text) => text,
      status: () => ({ state: 'connected', since: 0 }),
    };
    const store = openStore(':memory:');
    const start = c.t;
    const paragraphs = Array.from({ length: 6 }, (_, i) => `part ${i} ${'x'.repeat(90)}`);
    const result = await deliver(
      {
        adapters: new Map([['tg', adapter]]),
        commit: asyncSqliteStore(store).commit,
        logger: silent,
        rateLimiter: new SendRateLimiter(c.now),
        sleep: async (ms) => {
          c.t += ms;
        },
      },
      { platform: 'tg', chatId: '42' },
      paragraphs.join('\n\n'),
    );
    expect(result).toMatchObject({ sent: 6, failed: 0 });
    expect(sent.map((s) => s.at - start)).toEqual([0, 0, 0, 1_000, 2_000, 3_000]);
    expect(sent.map((s) => s.text.split(' ')[1])).toEqual(['0', '1', '2', '3', '4', '5']);
    store.close();
  });
});

describe('where the limits apply', () => {
  const declared = {
    maxMessageLength: 100,
    formatting: 'plain' as const,
    editing: false,
    typing: false,
    threads: false,
    sendRate: TELEGRAM,
  };

  it('paced on a public API, not on a loopback one (fakes), unless send_rate_limit says otherwise', () => {
    expect(capabilitiesFor(declared, 'https://api.telegram.org', undefined).sendRate).toEqual(TELEGRAM);
    for (const url of ['http://127.0.0.1:4000', 'http://localhost:9/api/', 'http://[::1]:80'])
      expect(capabilitiesFor(declared, url, undefined).sendRate).toBeUndefined();
    expect(capabilitiesFor(declared, 'http://127.0.0.1:4000', true).sendRate).toEqual(TELEGRAM);
    expect(capabilitiesFor(declared, 'https://slack.com/api/', false).sendRate).toBeUndefined();
    expect(readSendRateLimit({ send_rate_limit: true }, 'telegram')).toBe(true);
    expect(() => readSendRateLimit({ send_rate_limit: 'no' }, 'slack')).toThrow(
      'gateway.platforms.slack.send_rate_limit: expected true or false',
    );
  });

  it('each platform plugin declares its published limits', () => {
    expect(TELEGRAM_CAPABILITIES.sendRate).toEqual(TELEGRAM);
    expect(DISCORD_CAPABILITIES.sendRate).toEqual(DISCORD);
    expect(SLACK_CAPABILITIES.sendRate).toEqual({ perChat: { count: 1, perMs: 1_000, burst: 3 } });
  });
});
