// One timeline event as the gateway takes it (no network): DMs and rooms, mentions (m.mentions,
// pills, the name), threads, rich replies, files; and what is skipped without a crash: the bot's
// own echo, notices, edits, reactions, redacted and malformed events, unknown types, encrypted
// files, bodies over Matrix's event limit.
import { describe, expect, it } from 'vitest';
import { type Inbound, type RoomView, readTimelineEvent } from '../events.js';
import type { BotIdentity } from '../identity.js';

const BOT: BotIdentity = { userId: '@hermes:example.org', displayName: 'Hermes', authenticatedMedia: true };
const ALICE = '@alice:example.org';

const room = (over: Partial<RoomView> = {}): RoomView => ({
  roomId: '!room:example.org',
  direct: false,
  displayName: (id) => (id === ALICE ? 'Alice' : undefined),
  isBotEvent: () => undefined,
  botInThread: () => false,
  ...over,
});
const event = (content: Record<string, unknown>, over: Record<string, unknown> = {}) => ({
  type: 'm.room.message',
  event_id: '$abc',
  sender: ALICE,
  origin_server_ts: 1,
  content,
  ...over,
});
const read = (e: unknown, view: RoomView = room()): Inbound => readTimelineEvent(e, view, BOT, 7);
const message = (inbound: Inbound) => {
  if (inbound.kind !== 'message') throw new Error(`not a message: ${JSON.stringify(inbound)}`);
  return inbound;
};

describe('readTimelineEvent', () => {
  it('a DM: the room is the chat, the sender the user, the event id the message id', () => {
    const { event: e } = message(read(event({ msgtype: 'm.text', body: 'hi' }), room({ direct: true })));
    expect(e).toMatchObject({
      kind: 'text',
      text: 'hi',
      messageId: '$abc',
      receivedAt: 7,
      source: { platform: 'matrix', chatId: '!room:example.org', chatType: 'dm', userId: ALICE, userName: 'Alice' },
    });
    expect(e.source.mentioned).toBeUndefined();
  });

  it('a room message with a pill and m.mentions: mentioned, the pill text gone', () => {
    const inbound = read(
      event({
        msgtype: 'm.text',
        body: 'Hermes: what is up',
        format: 'org.matrix.custom.html',
        formatted_body: '<a href="https://matrix.to/#/@hermes:example.org">Hermes</a>: what is up',
        'm.mentions': { user_ids: [BOT.userId] },
      }),
    );
    expect(message(inbound).event).toMatchObject({
      text: 'what is up',
      source: { chatType: 'group', mentioned: true },
    });
  });

  it('m.mentions without the bot is not a mention, even with its name in the text', () => {
    const e = message(read(event({ msgtype: 'm.text', body: 'Hermes is a god', 'm.mentions': {} }))).event;
    expect(e.source.mentioned).toBeUndefined();
    expect(e.text).toBe('Hermes is a god');
  });

  it('older clients: a pill, the user id or the display name in the text mention it', () => {
    const pill = event({
      msgtype: 'm.text',
      body: 'Hermes: hello',
      formatted_body: '<a href="https://matrix.to/#/%40hermes%3Aexample.org">Hermes</a>: hello',
    });
    expect(message(read(pill)).event).toMatchObject({ text: 'hello', source: { mentioned: true } });
    const byId = event({ msgtype: 'm.text', body: 'ping @hermes:example.org now' });
    expect(message(read(byId)).event).toMatchObject({ text: 'ping now', source: { mentioned: true } });
    const byName = event({ msgtype: 'm.text', body: 'hey hermes, status?' });
    expect(message(read(byName)).event.source.mentioned).toBe(true);
    const inWord = event({ msgtype: 'm.text', body: 'the hermeses are here' });
    expect(message(read(inWord)).event.source.mentioned).toBeUndefined();
  });

  it('a thread message: the thread root is the threadId; a thread the bot answered in addresses it', () => {
    const content = {
      msgtype: 'm.text',
      body: 'more',
      'm.relates_to': {
        rel_type: 'm.thread',
        event_id: '$root',
        is_falling_back: true,
        'm.in_reply_to': { event_id: '$x' },
      },
    };
    const plain = message(read(event(content))).event;
    expect(plain.source).toMatchObject({ threadId: '$root' });
    expect(plain.source.repliedToBot).toBeUndefined();
    const answered = message(read(event(content), room({ botInThread: (root) => root === '$root' }))).event;
    expect(answered.source.repliedToBot).toBe(true);
  });

  it('a rich reply to the bot: its quoted fallback is dropped, and it addresses the bot', () => {
    const content = {
      msgtype: 'm.text',
      body: '> <@hermes:example.org> the answer\n> more\n\nthanks!',
      'm.relates_to': { 'm.in_reply_to': { event_id: '$bots' } },
    };
    const inbound = message(read(event(content)));
    expect(inbound.event).toMatchObject({ text: 'thanks!', source: { repliedToBot: true } });
    // the quoted user id is not a mention of the bot
    expect(inbound.event.source.mentioned).toBeUndefined();
  });

  it('a reply to an event the adapter does not know is handed on to be asked of the server', () => {
    const content = { msgtype: 'm.text', body: 'ok', 'm.relates_to': { 'm.in_reply_to': { event_id: '$old' } } };
    expect(message(read(event(content))).unknownReplyTo).toBe('$old');
    expect(message(read(event(content), room({ isBotEvent: () => true }))).event.source.repliedToBot).toBe(true);
  });

  it('an image: a photo attachment by mxc URI; a filename other than the body makes the body a caption', () => {
    const inbound = message(
      read(
        event({
          msgtype: 'm.image',
          body: 'look at this',
          filename: 'cat.png',
          url: 'mxc://example.org/AbCd123',
          info: { mimetype: 'image/png', size: 42 },
        }),
      ),
    );
    expect(inbound.event).toMatchObject({ kind: 'media', text: 'look at this' });
    expect(inbound.files).toEqual([
      {
        server: 'example.org',
        mediaId: 'AbCd123',
        fileName: 'cat.png',
        attachment: { kind: 'photo', path: null, fileName: 'cat.png', mimeType: 'image/png', size: 42 },
      },
    ]);
    const bare = message(read(event({ msgtype: 'm.audio', body: 'voice.ogg', url: 'mxc://example.org/v1' })));
    expect(bare.event).toMatchObject({ kind: 'media', text: '' });
    expect(bare.files[0]?.attachment.kind).toBe('audio');
  });

  it('a location becomes a line with its geo URI', () => {
    const e = message(read(event({ msgtype: 'm.location', body: 'Office', geo_uri: 'geo:51.5,-0.1' }))).event;
    expect(e.text).toBe('[location geo:51.5,-0.1 (Office)]');
  });

  it('an encrypted event is reported as such (the adapter says once that it cannot read it)', () => {
    expect(
      read({ type: 'm.room.encrypted', event_id: '$e', sender: ALICE, content: { algorithm: 'm.megolm.v1.aes-sha2' } }),
    ).toEqual({
      kind: 'encrypted',
      sender: ALICE,
    });
  });

  it.each([
    ['the bot’s own echo', event({ msgtype: 'm.text', body: 'x' }, { sender: BOT.userId }), "the bot's own event"],
    ['a notice', event({ msgtype: 'm.notice', body: 'beep' }), 'a notice'],
    [
      'an edit',
      event({ msgtype: 'm.text', body: '* x', 'm.relates_to': { rel_type: 'm.replace', event_id: '$a' } }),
      'an edit',
    ],
    ['a redacted message', event({}), 'a redacted message'],
    ['no body', event({ msgtype: 'm.text' }), 'without a body'],
    ['a body that is not text', event({ msgtype: 'm.text', body: { nested: true } }), 'without a body'],
    ['a reaction', { type: 'm.reaction', event_id: '$r', sender: ALICE, content: {} }, 'a reaction'],
    ['a sticker', { type: 'm.sticker', event_id: '$s', sender: ALICE, content: {} }, 'a sticker'],
    ['an unknown type', { type: 'org.example.poll', event_id: '$p', sender: ALICE, content: {} }, 'org.example.poll'],
    ['no event_id', { type: 'm.room.message', sender: ALICE, content: { body: 'x' } }, 'without an event_id'],
    ['not an object', 'garbage', 'not an object'],
    ['null', null, 'not an object'],
    ['an encrypted file', event({ msgtype: 'm.file', body: 'f', file: { url: 'mxc://x/y' } }), 'encrypted file'],
    [
      'a URL that is not mxc',
      event({ msgtype: 'm.image', body: 'i', url: 'https://evil.example/x.png' }),
      'not an mxc',
    ],
    [
      'a path in the mxc URI',
      event({ msgtype: 'm.file', body: 'f', url: 'mxc://example.org/../../etc' }),
      'not an mxc',
    ],
    [
      'a body over the event limit',
      event({ msgtype: 'm.text', body: 'x'.repeat(70_000) }),
      "over Matrix's event limit",
    ],
    ['an empty text', event({ msgtype: 'm.text', body: '   ' }), 'without text or files'],
  ])('skipped: %s', (_name, e, reason) => {
    const inbound = read(e);
    expect(inbound.kind).toBe('skip');
    expect(inbound.kind === 'skip' ? inbound.reason : '').toContain(reason);
  });
});
