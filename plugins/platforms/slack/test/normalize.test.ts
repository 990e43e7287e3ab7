// Slack event payloads → MessageEvent: checking, ignoring, places (dm / group / thread), mentions, files.
import { describe, expect, it } from 'vitest';
import { type NormalizeContext, normalizeSlackMessage } from '../normalize.js';
import { parseSlackMessage, type SlackMessage } from '../slack-message.js';
import * as fx from './fixtures/events.js';

function context(overrides: Partial<NormalizeContext> = {}): NormalizeContext {
  return { bot: fx.BOT, strictMention: false, answeredThread: () => false, now: 1_000, ...overrides };
}

function parsed(event: unknown): SlackMessage {
  const result = parseSlackMessage(event);
  if (result.kind !== 'message') throw new Error(`not a message: ${result.kind} ${result.reason}`);
  return result.message;
}

function normalize(event: unknown, overrides: Partial<NormalizeContext> = {}) {
  const result = normalizeSlackMessage(parsed(event), { event }, context(overrides));
  if ('ignored' in result) throw new Error(`ignored: ${result.ignored}`);
  return result;
}

describe('parseSlackMessage', () => {
  it.each([
    ['a bot post', fx.botMessage, 'bot message'],
    ['an edit', fx.messageChanged, 'subtype message_changed'],
    ['a deletion', fx.messageDeleted, 'subtype message_deleted'],
    ['a join', fx.channelJoin, 'subtype channel_join'],
  ])('ignores %s', (_, event, reason) => {
    expect(parseSlackMessage(event)).toEqual({ kind: 'ignored', reason });
  });

  it.each([
    ['not an object', 'hello', 'event is not an object'],
    ['another event type', { type: 'reaction_added' }, 'unexpected event type "reaction_added"'],
    ['no channel', { ...fx.dmMessage, channel: undefined }, 'missing or invalid channel'],
    ['no user and a bad ts', { ...fx.dmMessage, user: '', ts: '12:00' }, 'missing or invalid user, ts'],
    ['text of the wrong type', { ...fx.dmMessage, text: 42 }, 'text is not a string'],
    ['files that are not a list', { ...fx.fileShare, files: { id: 'F1' } }, 'files is not a list'],
    ['a bad thread_ts', { ...fx.threadReply, thread_ts: 'yesterday' }, 'invalid thread_ts'],
  ])('calls %s malformed', (_, event, reason) => {
    expect(parseSlackMessage(event)).toEqual({ kind: 'malformed', reason });
  });

  it('accepts file shares and thread broadcasts (a person wrote them)', () => {
    expect(parseSlackMessage(fx.fileShare).kind).toBe('message');
    expect(parseSlackMessage(fx.threadBroadcast).kind).toBe('message');
  });
});

describe('normalizeSlackMessage', () => {
  it('makes a DM a dm event, decoding Slack entities, with a stable message id', () => {
    const { event } = normalize(fx.dmMessage, { userName: 'alice' });
    expect(event).toEqual({
      platform: 'slack',
      kind: 'text',
      messageId: 'D0DM00001:1712345678.000100',
      text: 'what is 2 < 3 && 4 > 1?',
      internal: false,
      receivedAt: 1_000,
      raw: { event: fx.dmMessage },
      source: {
        platform: 'slack',
        chatId: 'D0DM00001',
        chatType: 'dm',
        userId: 'U0ALICE01',
        userName: 'alice',
        mentioned: false,
        repliedToBot: false,
      },
    });
  });

  it('answers a DM thread reply in that thread, still as the DM', () => {
    expect(normalize(fx.dmThreadReply).event.source).toMatchObject({
      chatType: 'dm',
      threadId: '1712345678.000100',
    });
  });

  it('gives the message and app_mention events of one message the same id, both mentioned, mention stripped', () => {
    const message = normalize(fx.channelMention).event;
    const mention = normalize(fx.appMention).event;
    expect(message.messageId).toBe('C0GENERAL:1712345680.000200');
    expect(mention.messageId).toBe(message.messageId);
    for (const event of [message, mention]) {
      expect(event.text).toBe('summarise this channel');
      expect(event.source).toMatchObject({
        chatId: 'C0GENERAL',
        chatType: 'group',
        threadId: '1712345680.000200',
        mentioned: true,
        repliedToBot: false,
      });
    }
  });

  it('treats a group DM (mpim) like a channel', () => {
    expect(normalize(fx.mpimMessage).event.source).toMatchObject({ chatId: 'G0GROUPDM1', chatType: 'group' });
  });

  it('makes a thread reply a thread event of its parent thread', () => {
    const { event } = normalize(fx.threadReply);
    expect(event.messageId).toBe('C0GENERAL:1712345690.000300');
    expect(event.source).toMatchObject({
      chatType: 'thread',
      threadId: '1712345680.000200',
      mentioned: false,
      repliedToBot: false,
    });
  });

  it('counts a follow-up in a thread the bot answered, or under a bot post, as addressed', () => {
    const answered = (channel: string, threadTs: string) => channel === 'C0GENERAL' && threadTs === '1712345680.000200';
    expect(normalize(fx.threadReply, { answeredThread: answered }).event.source.repliedToBot).toBe(true);
    expect(normalize(fx.replyToBotPost).event.source.repliedToBot).toBe(true);
  });

  it('with strict_mention, only a mention addresses the bot in its threads', () => {
    const answered = () => true;
    expect(normalize(fx.threadReply, { answeredThread: answered, strictMention: true }).event.source).toMatchObject({
      repliedToBot: false,
      mentioned: false,
    });
    const mentioned = { ...fx.threadReply, text: '<@UBOT0001> and the second part?' };
    expect(normalize(mentioned, { answeredThread: answered, strictMention: true }).event.source).toMatchObject({
      mentioned: true,
      repliedToBot: false,
    });
  });

  it('makes a message with files a media event listing them (paths pending)', () => {
    const { event, files } = normalize(fx.fileShare);
    expect(event.kind).toBe('media');
    expect(event.attachments).toEqual([
      { kind: 'document', path: null, fileName: 'Q1_report.pdf', mimeType: 'application/pdf', size: 2048 },
      { kind: 'photo', path: null, fileName: 'chart.png', mimeType: 'image/png', size: 512 },
    ]);
    expect(files.map((file) => [file.cacheName, file.ref.url])).toEqual([
      ['F0FILE0001-Q1_report.pdf', fx.fileShare.files[0]?.url_private_download],
      ['F0FILE0002-chart.png', fx.fileShare.files[1]?.url_private],
    ]);
  });

  it('ignores the bot’s own messages and messages with nothing in them', () => {
    const own = normalizeSlackMessage(parsed({ ...fx.dmMessage, user: fx.BOT.userId }), {}, context());
    expect(own).toEqual({ ignored: 'own message' });
    const empty = normalizeSlackMessage(parsed({ ...fx.channelMention, text: '<@UBOT0001>' }), {}, context());
    expect(empty).toEqual({ ignored: 'empty message' });
  });

  it('strips "@bot:" so the command that follows is seen', () => {
    const event = normalize({ ...fx.channelMention, text: '<@UBOT0001>: /new' }).event;
    expect(event.text).toBe('/new');
    expect(normalize({ ...fx.dmMessage, text: ':wave: hi' }).event.text).toBe(':wave: hi');
  });
});
