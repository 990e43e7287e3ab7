// normalizeUpdate is pure: Update in, MessageEvent (plus files to fetch) out.

import { safeFileName } from '@hermes/plugin-sdk';
import type { Message, Update, User } from 'grammy/types';
import { describe, expect, it } from 'vitest';
import { mentionsBot, stripCommandSuffix } from '../mentions.js';
import { normalizeUpdate } from '../normalize.js';

const BOT = { id: 777, username: 'hermes_test_bot' };
const NOW = 1_700_000_000_000;
const ADA = { id: 42, is_bot: false, first_name: 'Ada', last_name: 'Lovelace' };
const DM = { id: 42, type: 'private' as const, first_name: 'Ada' };
const GROUP = { id: -5, type: 'group' as const, title: 'G' };
const FORUM = { id: -100, type: 'supergroup' as const, title: 'F', is_forum: true as const };

type MessageInput = Omit<Partial<Message>, 'chat' | 'from'> & { chat: Update.NonChannel['chat']; from?: User };

function update(message: MessageInput): Update {
  return { update_id: 1, message: { message_id: 10, date: 0, ...message, from: message.from ?? ADA } };
}

describe('normalizeUpdate', () => {
  it('translates a DM text message, keeping the raw update', () => {
    const raw = update({ chat: DM, text: 'hello' });
    const result = normalizeUpdate(raw, BOT, NOW);
    expect(result?.files).toEqual([]);
    expect(result?.event).toEqual({
      kind: 'text',
      platform: 'telegram',
      messageId: '42:10',
      text: 'hello',
      internal: false,
      receivedAt: NOW,
      raw,
      source: {
        platform: 'telegram',
        chatId: '42',
        chatType: 'dm',
        userId: '42',
        userName: 'Ada Lovelace',
        mentioned: false,
        repliedToBot: false,
      },
    });
  });

  it('prefers the username as userName', () => {
    const result = normalizeUpdate(update({ chat: DM, text: 'x', from: { ...ADA, username: 'ada' } }), BOT, NOW);
    expect(result?.event.source.userName).toBe('ada');
  });

  it('ignores edits, channel posts, callback queries and service messages', () => {
    const message = { message_id: 1, date: 0, chat: DM, from: ADA, text: 'x' };
    expect(normalizeUpdate({ update_id: 1, edited_message: { ...message, edit_date: 1 } }, BOT)).toBeNull();
    expect(
      normalizeUpdate(
        { update_id: 1, channel_post: { message_id: 1, date: 0, chat: { id: -1, type: 'channel', title: 'C' } } },
        BOT,
      ),
    ).toBeNull();
    expect(normalizeUpdate({ update_id: 1 }, BOT)).toBeNull();
    expect(normalizeUpdate(update({ chat: GROUP, new_chat_members: [ADA] }), BOT)).toBeNull();
  });

  it('maps group and supergroup chats to group, and forum topic messages to thread', () => {
    expect(normalizeUpdate(update({ chat: GROUP, text: 'x' }), BOT)?.event.source.chatType).toBe('group');
    const reply = update({ chat: FORUM, text: 'x', message_thread_id: 5 }); // a reply thread, not a topic
    expect(normalizeUpdate(reply, BOT)?.event.source).not.toHaveProperty('threadId');
    const topic = update({ chat: FORUM, text: 'x', message_thread_id: 5, is_topic_message: true });
    expect(normalizeUpdate(topic, BOT)?.event.source).toMatchObject({ chatType: 'thread', threadId: '5' });
  });

  it('detects mentions: @username (any case), text_mention, /command@bot', () => {
    const at = update({
      chat: GROUP,
      text: 'hi @Hermes_Test_Bot',
      entities: [{ type: 'mention', offset: 3, length: 16 }],
    });
    expect(normalizeUpdate(at, BOT)?.event.source.mentioned).toBe(true);
    const textMention = update({
      chat: GROUP,
      text: 'hi Hermes',
      entities: [{ type: 'text_mention', offset: 3, length: 6, user: { id: 777, is_bot: true, first_name: 'Hermes' } }],
    });
    expect(normalizeUpdate(textMention, BOT)?.event.source.mentioned).toBe(true);
    const plainCommand = update({
      chat: GROUP,
      text: '/help',
      entities: [{ type: 'bot_command', offset: 0, length: 5 }],
    });
    expect(normalizeUpdate(plainCommand, BOT)?.event.source.mentioned).toBe(false);
    const noEntities = update({ chat: GROUP, text: 'hi @hermes_test_bot' });
    expect(normalizeUpdate(noEntities, BOT)?.event.source.mentioned).toBe(false);
  });

  it('uses UTF-16 entity offsets, as Telegram does', () => {
    const text = '😀 @hermes_test_bot';
    const event = normalizeUpdate(
      update({ chat: GROUP, text, entities: [{ type: 'mention', offset: 3, length: 16 }] }),
      BOT,
    )?.event;
    expect(event?.source.mentioned).toBe(true);
  });

  it('detects replies to the bot only', () => {
    const toBot = update({
      chat: GROUP,
      text: 'x',
      reply_to_message: {
        message_id: 3,
        date: 0,
        chat: GROUP,
        from: { id: 777, is_bot: true, first_name: 'H' },
        reply_to_message: undefined,
      },
    });
    expect(normalizeUpdate(toBot, BOT)?.event.source.repliedToBot).toBe(true);
    const toHuman = update({
      chat: GROUP,
      text: 'x',
      reply_to_message: { message_id: 3, date: 0, chat: GROUP, from: ADA, reply_to_message: undefined },
    });
    expect(normalizeUpdate(toHuman, BOT)?.event.source.repliedToBot).toBe(false);
  });

  it('lists the largest photo and a document as attachments to download, with the caption as text', () => {
    const raw = update({
      chat: DM,
      caption: 'see',
      photo: [
        { file_id: 'small', file_unique_id: 'us', width: 90, height: 90 },
        { file_id: 'big', file_unique_id: 'ub', width: 1280, height: 720, file_size: 1000 },
        { file_id: 'mid', file_unique_id: 'um', width: 320, height: 180 },
      ],
      document: { file_id: 'd', file_unique_id: 'ud', file_name: 'a b.txt', mime_type: 'text/plain' },
    });
    const result = normalizeUpdate(raw, BOT, NOW);
    expect(result?.event.kind).toBe('media');
    expect(result?.event.text).toBe('see');
    expect(result?.files.map((file) => [file.fileId, file.fileUniqueId, file.fileName])).toEqual([
      ['big', 'ub', 'photo.jpg'],
      ['d', 'ud', 'a_b.txt'],
    ]);
    expect(result?.event.attachments).toEqual([
      { kind: 'photo', path: null, fileName: 'photo.jpg', mimeType: 'image/jpeg', size: 1000 },
      { kind: 'document', path: null, fileName: 'a_b.txt', mimeType: 'text/plain' },
    ]);
  });

  it('treats voice, audio and video as attachments too', () => {
    const raw = update({
      chat: DM,
      voice: { file_id: 'v', file_unique_id: 'uv', duration: 3 },
      video: { file_id: 'w', file_unique_id: 'uw', duration: 3, width: 1, height: 1 },
    });
    const kinds = normalizeUpdate(raw, BOT)?.event.attachments?.map((attachment) => attachment.kind);
    expect(kinds).toEqual(['audio', 'video']);
  });
});

describe('mention helpers', () => {
  it('strips only this bot from a leading command', () => {
    expect(stripCommandSuffix('/start@hermes_test_bot', BOT)).toBe('/start');
    expect(stripCommandSuffix('/start@HERMES_TEST_BOT go', BOT)).toBe('/start go');
    expect(stripCommandSuffix('/start@other_bot go', BOT)).toBe('/start@other_bot go');
    expect(stripCommandSuffix('say /start@hermes_test_bot', BOT)).toBe('say /start@hermes_test_bot');
  });

  it('does not count a command addressed to another bot', () => {
    const text = '/help@other_bot';
    expect(mentionsBot(text, [{ type: 'bot_command', offset: 0, length: text.length }], BOT)).toBe(false);
  });

  it('makes safe cache file names', () => {
    expect(safeFileName('../../etc/passwd')).toBe('passwd');
    expect(safeFileName('C:\\x\\évil name.pdf')).toBe('_vil_name.pdf');
    expect(safeFileName('...hidden')).toBe('hidden');
    expect(safeFileName('')).toBe('file');
  });
});
