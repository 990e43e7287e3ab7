// Small pure pieces: error mapping and redaction, slash command building, interaction routing, queues, settings.

import { backoffDelayMs } from '@hermes/plugin-sdk';
import { DiscordAPIError, HTTPError, RateLimitError } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { createChatQueue } from '../chat-queue.js';
import { LOGIN_BACKOFF } from '../connect.js';
import { describeError, redactSecrets } from '../error-text.js';
import { createInteractionReplies, INTERACTION_REPLY_WINDOW_MS } from '../interaction-replies.js';
import { toSendFailure } from '../send-errors.js';
import { readDiscordSettings, unknownSettingKeys } from '../settings.js';
import { slashCommandsFrom, toSlashCommand } from '../slash-commands.js';
import { TOKEN } from './harness.js';

const REQUEST = { body: undefined, files: undefined };

type ErrorData = Extract<ConstructorParameters<typeof DiscordAPIError>[0], { code: number }>;

function apiError(status: number, code: number, message: string, errors?: ErrorData['errors']): DiscordAPIError {
  const url = 'https://discord.com/api/v10/webhooks/1/aW50ZXJhY3Rpb246secret/messages/@original';
  return new DiscordAPIError(
    { code, message, ...(errors === undefined ? {} : { errors }) },
    code,
    status,
    'PATCH',
    url,
    REQUEST,
  );
}

describe('toSendFailure', () => {
  it('reads too_long from the content field of a 50035, and other 50035s as bad_format', () => {
    const tooLong = apiError(400, 50035, 'Invalid Form Body', {
      content: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 2000 or fewer in length.' }] },
    });
    const other = apiError(400, 50035, 'Invalid Form Body', {
      message_reference: { _errors: [{ code: 'MESSAGE_REFERENCE_UNKNOWN_MESSAGE', message: 'Unknown message' }] },
    });
    expect(toSendFailure(tooLong).error).toBe('too_long');
    expect(toSendFailure(other).error).toBe('bad_format');
  });

  it('maps a RateLimitError to rate_limited with its wait, and HTTP and network errors to transient', () => {
    const limited = new RateLimitError({
      timeToReset: 3_000,
      limit: 5,
      method: 'POST',
      hash: 'h',
      url: 'u',
      route: '/channels/:id/messages',
      majorParameter: '1',
      global: false,
      retryAfter: 2_999.5,
      sublimitTimeout: 0,
      scope: 'user',
    });
    expect(toSendFailure(limited)).toEqual({
      ok: false,
      error: 'rate_limited',
      retryAfterMs: 3_000,
      message: 'rate limited (user); retry after 3000 ms',
    });
    expect(toSendFailure(new HTTPError(503, 'Service Unavailable', 'POST', 'u', REQUEST)).error).toBe('transient');
    expect(toSendFailure(new TypeError('fetch failed')).error).toBe('transient');
  });

  it('maps unknown webhooks and interactions to not_found', () => {
    expect(toSendFailure(apiError(404, 10015, 'Unknown Webhook')).error).toBe('not_found');
    expect(toSendFailure(apiError(404, 10062, 'Unknown interaction')).error).toBe('not_found');
  });
});

describe('log-safe error text', () => {
  it('hides the bot token, Bot headers and interaction tokens', () => {
    const text = redactSecrets(
      `Authorization: Bot ${TOKEN} at /interactions/123/aW50ZXJhY3Rpb24.x-y/callback and ${TOKEN} and /webhooks/9/tok/messages`,
    );
    expect(text).toBe(
      'Authorization: Bot <token> at /interactions/123/<token>/callback and <token> and /webhooks/9/<token>/messages',
    );
  });

  it('describes API errors by status and code, without the request URL', () => {
    const described = describeError(apiError(404, 10015, 'Unknown Webhook'));
    expect(described).toBe('404 10015: Unknown Webhook');
    const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    expect(describeError(new TypeError('fetch failed', { cause }))).toBe(
      'fetch failed (ECONNREFUSED connect ECONNREFUSED 127.0.0.1:1)',
    );
  });
});

describe('slash command list', () => {
  it('lowercases names, skips invalid and duplicate ones, and truncates descriptions to 100', () => {
    const { commands, skipped } = slashCommandsFrom([
      { name: 'Status', description: 'this session' },
      { name: 'status', description: 'again' },
      { name: 'has space', description: 'x' },
      { name: 'x'.repeat(33), description: 'x' },
      { name: 'long', description: 'd'.repeat(150) },
      { name: 'blank', description: '' },
    ]);
    expect(commands.map((command) => command.name)).toEqual(['status', 'long', 'blank']);
    expect(skipped).toEqual(['status', 'has space', 'x'.repeat(33)]);
    expect([...(commands[1]?.description ?? '')]).toHaveLength(100);
    expect(commands[1]?.description.endsWith('…')).toBe(true);
    expect(commands[2]?.description).toBe('/blank');
    expect(commands[0]).toEqual({
      type: 1,
      name: 'status',
      description: 'this session',
      contexts: [0, 1],
      integration_types: [0],
    });
  });

  it('gives commands whose description starts with their usage one optional text option', () => {
    expect(toSlashCommand({ name: 'steer', description: '/steer TEXT: hand TEXT to the running turn' })).toMatchObject({
      description: 'hand TEXT to the running turn',
      options: [{ type: 3, name: 'text', description: 'TEXT', required: false }],
    });
    expect(toSlashCommand({ name: 'weather', description: '/weather CITY' })?.options?.[0]?.description).toBe('CITY');
    expect(toSlashCommand({ name: 'new', description: 'start a fresh session' })?.options).toBeUndefined();
  });

  it('registers at most 100 commands', () => {
    const many = Array.from({ length: 105 }, (_, i) => ({ name: `c${i}`, description: 'd' }));
    expect(slashCommandsFrom(many).commands).toHaveLength(100);
    expect(slashCommandsFrom(many).skipped).toEqual(['c100', 'c101', 'c102', 'c103', 'c104']);
  });
});

describe('interaction routing', () => {
  const open = (replies: ReturnType<typeof createInteractionReplies>, id: string, chatId: string) =>
    replies.open({ id, token: `t${id}`, applicationId: 'a', chatId }, async () => true);

  it('routes a named send, then unnamed chunks, to the interaction; a plain reply ends it', () => {
    const replies = createInteractionReplies(() => 0);
    expect(open(replies, 'i1', 'c')).toBe(true);
    expect(open(replies, 'i1', 'c')).toBe(false);
    const named = replies.target({ chatId: 'c', text: 'a', formatted: true, replyToMessageId: 'i1' });
    expect(named?.id).toBe('i1');
    if (named) named.answered = true;
    expect(replies.target({ chatId: 'c', text: 'b', formatted: true })?.id).toBe('i1');
    expect(replies.target({ chatId: 'other', text: 'b', formatted: true })).toBeUndefined();
    expect(replies.target({ chatId: 'c', text: 'x', formatted: true, replyToMessageId: 'm1' })).toBeUndefined();
    expect(replies.target({ chatId: 'c', text: 'y', formatted: true })).toBeUndefined();
  });

  it('keeps an unanswered interaction current through plain messages, and drops expired ones', () => {
    let now = 0;
    const replies = createInteractionReplies(() => now);
    open(replies, 'i1', 'dm');
    replies.inbound('dm');
    expect(replies.target({ chatId: 'dm', text: 'a', formatted: true })?.id).toBe('i1');
    now = INTERACTION_REPLY_WINDOW_MS + 1;
    expect(replies.target({ chatId: 'dm', text: 'a', formatted: true })).toBeUndefined();
    expect(replies.size()).toBe(0);
  });

  it('acknowledges only new interactions', () => {
    const replies = createInteractionReplies(() => 0);
    let acks = 0;
    const ack = async () => {
      acks += 1;
      return true;
    };
    replies.open({ id: 'i', token: 't', applicationId: 'a', chatId: 'c' }, ack);
    replies.open({ id: 'i', token: 't', applicationId: 'a', chatId: 'c' }, ack);
    expect(acks).toBe(1);
  });
});

describe('chat queue', () => {
  it('runs one chat in order and other chats alongside, even after a failure', async () => {
    const queue = createChatQueue();
    const order: string[] = [];
    let release = (): void => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const a1 = queue.run('a', async () => {
      await gate;
      order.push('a1');
      throw new Error('boom');
    });
    const a2 = queue.run('a', async () => void order.push('a2'));
    await queue.run('b', async () => void order.push('b1'));
    release();
    await expect(a1).rejects.toThrow('boom');
    await a2;
    expect(order).toEqual(['b1', 'a1', 'a2']);
  });
});

describe('settings', () => {
  const env = { DISCORD_BOT_TOKEN: TOKEN };

  it('defaults to the official API with slash commands on', () => {
    expect(readDiscordSettings({}, env)).toEqual({
      token: TOKEN,
      apiBase: 'https://discord.com/api',
      slashCommands: true,
      attachmentMaxBytes: 25 * 1024 * 1024,
      rateLimitWaitMaxMs: 10_000,
      globalRequestsPerSecond: 50,
      suppressEmbeds: true,
      catchUpHours: 24,
    });
  });

  it('takes api_base from the settings, else DISCORD_API_BASE, without a trailing slash', () => {
    expect(readDiscordSettings({ api_base: 'http://127.0.0.1:1/api/' }, env).apiBase).toBe('http://127.0.0.1:1/api');
    expect(readDiscordSettings({}, { ...env, DISCORD_API_BASE: 'http://127.0.0.1:2/api' }).apiBase).toBe(
      'http://127.0.0.1:2/api',
    );
    expect(
      readDiscordSettings({ api_base: 'http://127.0.0.1:1/api' }, { ...env, DISCORD_API_BASE: 'http://x/api' }).apiBase,
    ).toBe('http://127.0.0.1:1/api');
  });

  it.each([
    [{ api_base: 42 }, /api_base/],
    [{ api_base: 'ftp://x' }, /api_base/],
    [{ slash_commands: 'no' }, /slash_commands/],
    [{ attachment_max_bytes: 0 }, /attachment_max_bytes/],
    [{ rate_limit_wait_max_ms: 1.5 }, /rate_limit_wait_max_ms/],
    [{ suppress_embeds: 1 }, /suppress_embeds/],
  ])('refuses %o', (settings, message) => {
    expect(() => readDiscordSettings(settings, env)).toThrow(message);
  });

  it('needs the token, and names unknown keys', () => {
    expect(() => readDiscordSettings({}, {})).toThrow(/DISCORD_BOT_TOKEN/);
    expect(unknownSettingKeys({ enabled: true, api_base: 'x', slash_comands: false })).toEqual(['slash_comands']);
  });

  it('backs off logins exponentially with jitter, capped at 60 s', () => {
    expect([1, 2, 3].map((attempt) => backoffDelayMs(attempt, () => 1, LOGIN_BACKOFF))).toEqual([1_000, 2_000, 4_000]);
    expect(backoffDelayMs(30, () => 0, LOGIN_BACKOFF)).toBe(30_000);
  });
});
