// Inbound translation end to end (fake gateway → real discord.js → adapter → sink): DMs, guild facts, threads, files.
import { existsSync, readFileSync } from 'node:fs';
import type { PlatformAdapter } from '@hermes/protocol';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADA, BOB, eventually, type Harness, nextEvent, recordingSink, startHarness } from './harness.js';

let h: Harness;
let adapter: PlatformAdapter;
const recorder = recordingSink();

beforeAll(async () => {
  h = await startHarness();
  adapter = h.adapter({ settings: { attachment_max_bytes: 64 } });
  await adapter.start(recorder.sink);
});
afterAll(() => h.close());
beforeEach(() => {
  recorder.events.length = 0;
  h.lines.length = 0;
  h.fake.reset();
});

const next = () => nextEvent(recorder.events);

describe('discord inbound', () => {
  it('turns a DM into a dm event keyed by the Discord message id, keeping the raw payload', async () => {
    const payload = h.fake.dmMessage({ user: ADA, content: 'hello there' });
    const event = await next();
    expect(event).toMatchObject({
      kind: 'text',
      platform: 'discord',
      messageId: payload.id,
      text: 'hello there',
      internal: false,
      source: {
        platform: 'discord',
        chatId: h.fake.dmChannelId(ADA),
        chatType: 'dm',
        userId: ADA.id,
        userName: 'Ada',
        mentioned: false,
        repliedToBot: false,
      },
    });
    expect(event.source.threadId).toBeUndefined();
    expect(event.raw).toEqual(payload);
  });

  it('marks a guild message that mentions the bot, and strips the mention', async () => {
    h.fake.guildMessage({ user: ADA, content: 'what time is it?', mention: true });
    const event = await next();
    expect(event.text).toBe('what time is it?');
    expect(event.source).toMatchObject({
      chatId: h.fake.textChannelIds[0],
      chatType: 'group',
      mentioned: true,
      repliedToBot: false,
    });
  });

  it('passes a guild message without a mention on, unmarked (the gateway decides)', async () => {
    h.fake.guildMessage({ user: BOB, content: 'just chatting', channelId: h.fake.textChannelIds[1] });
    const event = await next();
    expect(event.source).toMatchObject({ chatId: h.fake.textChannelIds[1], chatType: 'group', userId: BOB.id });
    expect(event.source.mentioned).toBe(false);
  });

  it('makes "@bot /new" the command /new', async () => {
    h.fake.guildMessage({ user: ADA, content: '/new', mention: true });
    expect((await next()).text).toBe('/new');
  });

  it('counts a mention of the bot managed role as a mention', async () => {
    const role = h.fake.botRoleId;
    h.fake.guildMessage({ user: ADA, content: `<@&${role}> ping`, mentionRoles: [role] });
    const withRole = await next();
    expect(withRole.source.mentioned).toBe(true);
    expect(withRole.text).toBe('ping');
    h.fake.guildMessage({
      user: ADA,
      content: '<@&123456789012345678> other role',
      mentionRoles: ['123456789012345678'],
    });
    const other = await next();
    expect(other.source.mentioned).toBe(false);
    expect(other.text).toBe('<@&123456789012345678> other role');
  });

  it('marks a reply to a bot message, and not a reply to a user', async () => {
    h.fake.guildMessage({ user: ADA, content: 'thanks', replyTo: 'bot' });
    const event = await next();
    expect(event.source).toMatchObject({ repliedToBot: true, mentioned: false });
    const other = h.fake.guildMessage({ user: BOB, content: 'first' });
    h.fake.guildMessage({ user: ADA, content: 'agreed', replyTo: other.id });
    await next();
    expect((await next()).source.repliedToBot).toBe(false);
  });

  it('makes a thread its own chat: chatId = threadId = the thread channel', async () => {
    h.fake.threadMessage({ user: ADA, content: 'in the thread', mention: true });
    const event = await next();
    expect(event.source).toMatchObject({ chatType: 'thread', chatId: h.fake.threadId, threadId: h.fake.threadId });
  });

  it('knows a thread from the channel cache when the dispatch has no channel_type', async () => {
    h.fake.threadMessage({ user: BOB, content: 'older payload', omitChannelType: true });
    const event = await next();
    expect(event.source).toMatchObject({ chatType: 'thread', threadId: h.fake.threadId });
    expect(h.fake.calls.some((call) => call.route === 'getChannel')).toBe(false);
  });

  it('learns the type of a channel it has not seen over REST, once', async () => {
    const threadId = h.fake.addThread({ announce: false });
    h.fake.guildMessage({ user: ADA, content: 'one', channelId: threadId, omitChannelType: true });
    h.fake.guildMessage({ user: ADA, content: 'two', channelId: threadId, omitChannelType: true });
    expect((await next()).source).toMatchObject({ chatType: 'thread', chatId: threadId, threadId });
    expect((await next()).source.chatType).toBe('thread');
    expect(h.fake.calls.filter((call) => call.route === 'getChannel').map((call) => call.path)).toEqual([
      `/channels/${threadId}`,
    ]);
  });

  it('treats a channel whose type cannot be learned as a group, with a warning', async () => {
    const raw = h.fake.guildMessage({ user: ADA, content: 'known' });
    await next();
    const { channel_type: _type, ...older } = raw;
    h.fake.dispatch('MESSAGE_CREATE', { ...older, id: '1300000000000000001', channel_id: '1300000000000000002' });
    expect((await next()).source).toMatchObject({ chatType: 'group', chatId: '1300000000000000002' });
    expect(h.lines.some((line) => line.level === 'warn' && /channel type unknown/.test(line.msg ?? ''))).toBe(true);
  });

  it('ignores messages from bots, itself included, and system messages', async () => {
    h.fake.guildMessage({ user: { id: '200000000000000001', name: 'Other bot', bot: true }, content: 'beep' });
    const own = h.fake.guildMessage({ user: ADA, content: 'x' });
    await next();
    h.fake.dispatch('MESSAGE_CREATE', { ...own, id: '1300000000000000003', author: h.fake.bot });
    h.fake.dispatch('MESSAGE_CREATE', { ...own, id: '1300000000000000004', type: 7, content: '' });
    h.fake.dmMessage({ user: ADA, content: 'marker' });
    expect((await next()).text).toBe('marker');
    expect(recorder.events).toEqual([]);
  });

  it('downloads attachments into the cache folder and delivers a media event', async () => {
    h.fake.dmMessage({
      user: ADA,
      content: 'what is this?',
      attachments: [
        { data: 'PNGBYTES', fileName: 'cat picture.png', contentType: 'image/png' },
        { data: '%PDF-1.4', fileName: '../../etc/report.pdf', contentType: 'application/pdf' },
      ],
    });
    const event = await next();
    expect(event.kind).toBe('media');
    expect(event.text).toBe('what is this?');
    const [photo, doc] = event.attachments ?? [];
    expect(photo).toMatchObject({ kind: 'photo', fileName: 'cat_picture.png', mimeType: 'image/png', size: 8 });
    expect(doc).toMatchObject({ kind: 'document', fileName: 'report.pdf', mimeType: 'application/pdf' });
    expect(photo?.path?.startsWith(h.cacheDir)).toBe(true);
    expect(readFileSync(photo?.path ?? '', 'utf8')).toBe('PNGBYTES');
    expect(existsSync(doc?.path ?? '')).toBe(true);
  });

  it('keeps the message with path null when a download fails or the file is over the cap', async () => {
    h.fake.failNext('attachment', { status: 404 });
    h.fake.dmMessage({ user: ADA, content: 'gone', attachments: [{ data: 'x', fileName: 'a.txt' }] });
    const failed = await next();
    expect(failed.attachments?.[0]?.path).toBeNull();
    h.fake.dmMessage({ user: ADA, content: 'huge', attachments: [{ data: 'y'.repeat(65), fileName: 'b.bin' }] });
    const huge = await next();
    expect(huge.attachments?.[0]).toMatchObject({ path: null, size: 65 });
    h.fake.dmMessage({
      user: ADA,
      content: 'lies',
      attachments: [{ data: 'z'.repeat(100), fileName: 'c.bin', size: 1 }],
    });
    expect((await next()).attachments?.[0]?.path).toBeNull();
    const warnings = h.lines.filter((line) => line.level === 'warn' && /download failed/.test(line.msg ?? ''));
    expect(warnings).toHaveLength(3);
    expect(h.fake.calls.filter((call) => call.route === 'attachment')).toHaveLength(2);
  });

  it('logs a malformed dispatch with what was wrong, skips it, and keeps going', async () => {
    const channel = h.fake.textChannelIds[0];
    h.fake.dispatch('MESSAGE_CREATE', {
      id: '1300000000000000010',
      channel_id: channel,
      content: 'no author',
      type: 0,
    });
    h.fake.dispatch('MESSAGE_CREATE', {
      id: '1300000000000000011',
      channel_id: channel,
      type: 0,
      content: 42,
      author: { id: ADA.id, username: 'ada' },
    });
    h.fake.dmMessage({ user: ADA, content: 'still here' });
    expect((await next()).text).toBe('still here');
    const skipped = h.lines.filter((line) => /malformed MESSAGE_CREATE/.test(line.msg ?? ''));
    expect(skipped.map((line) => line.obj)).toEqual([
      { problem: 'author is missing', messageId: '1300000000000000010' },
      { problem: 'content is not a string', messageId: '1300000000000000011' },
    ]);
    expect(adapter.status().state).toBe('connected');
  });

  it('retries a failed accept, since Discord will not redeliver the event', async () => {
    recorder.failNext(1);
    const payload = h.fake.dmMessage({ user: ADA, content: 'persist me' });
    const event = await next();
    expect(event.messageId).toBe(payload.id);
    expect(recorder.attempts.filter((attempt) => attempt.messageId === payload.id)).toHaveLength(2);
  });

  it('keeps the order of one chat even when an earlier message waits for a download', async () => {
    h.fake.dmMessage({ user: BOB, content: 'first', attachments: [{ data: 'a'.repeat(50), fileName: 'f.bin' }] });
    h.fake.dmMessage({ user: BOB, content: 'second' });
    await eventually(() => recorder.events.length === 2);
    expect(recorder.events.map((event) => event.text)).toEqual(['first', 'second']);
  });
});
