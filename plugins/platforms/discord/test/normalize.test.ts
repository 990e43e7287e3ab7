// Parsing and normalizing are pure: recorded gateway payloads in, MessageEvents (plus files to fetch) out.
import { readFileSync } from 'node:fs';
import { attachmentKind, safeFileName } from '@hermes/plugin-sdk';
import { describe, expect, it } from 'vitest';
import { kindOfChannelType, resolveChannelKind } from '../channel-kind.js';
import { commandEvent } from '../command-event.js';
import { normalizeMessage } from '../normalize.js';
import { type InboundMessage, parseInteractionCreate, parseMessageCreate } from '../payload.js';

const BOT = { id: '1372139662045982780', name: 'Hermes' };
const NOW = 1_747_214_000_000;

function fixture(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8'));
}

function parsed(raw: unknown): InboundMessage {
  const result = parseMessageCreate(raw);
  if (result.ok !== true) throw new Error(`not parsed: ${result.problem}`);
  return result.value;
}

describe('normalizeMessage', () => {
  it('translates a guild message that mentions the bot: group facts, mention stripped, names for others', () => {
    const raw = fixture('message-create-guild-mention');
    const result = normalizeMessage(parsed(raw), raw, { bot: BOT, kind: 'group' }, NOW);
    expect(result?.files).toEqual([]);
    expect(result?.event).toEqual({
      kind: 'text',
      platform: 'discord',
      messageId: '1372146381793706034',
      text: '/new and ask @Grace too',
      internal: false,
      receivedAt: NOW,
      raw,
      source: {
        platform: 'discord',
        chatId: '805823456780353600',
        chatType: 'group',
        userId: '287259985630953472',
        userName: 'Ada',
        mentioned: true,
        repliedToBot: false,
      },
    });
  });

  it('translates a DM with an image: a media event whose file still has to be downloaded', () => {
    const raw = fixture('message-create-dm');
    const result = normalizeMessage(parsed(raw), raw, { bot: BOT, kind: 'dm' }, NOW);
    expect(result?.event).toMatchObject({
      kind: 'media',
      text: 'hello, can you summarise this?',
      source: { chatId: '1372147790471254056', chatType: 'dm', mentioned: false },
      attachments: [{ kind: 'photo', path: null, fileName: 'notes_v2.png', mimeType: 'image/png', size: 183127 }],
    });
    expect(result?.files.map((file) => [file.id, file.url])).toEqual([
      [
        '1372148223117905940',
        'https://cdn.discordapp.com/attachments/1372147790471254056/1372148223117905940/notes_v2.png?ex=68260ea3&is=6824bd23&hm=0f1b2a',
      ],
    ]);
  });

  it('translates a reply to the bot inside a thread: the thread is the chat', () => {
    const raw = fixture('message-create-thread-reply');
    const result = normalizeMessage(parsed(raw), raw, { bot: BOT, kind: 'thread' }, NOW);
    expect(result?.event.source).toEqual({
      platform: 'discord',
      chatId: '1372150640458612827',
      chatType: 'thread',
      threadId: '1372150640458612827',
      userId: '287260010355670001',
      userName: 'Grace',
      mentioned: true,
      repliedToBot: true,
    });
    expect(result?.event.text).toBe('looks good, go on');
  });

  it('writes a bot mention inside a sentence as @Name and counts the managed role', () => {
    const raw = {
      ...fixture('message-create-guild-mention'),
      content: 'thanks <@!1372139662045982780>, and <@&1372139970011729921> too',
      mentions: [],
      mention_roles: ['1372139970011729921'],
    };
    const context = { bot: BOT, kind: 'group' as const, botRoleId: '1372139970011729921' };
    const event = normalizeMessage(parsed(raw), raw, context, NOW)?.event;
    expect(event?.text).toBe('thanks @Hermes, and @Hermes too');
    expect(event?.source.mentioned).toBe(true);
  });

  it('ignores the bot itself, other bots, webhooks, system messages, and empty messages', () => {
    const base = fixture('message-create-dm');
    const author = base.author as Record<string, unknown>;
    const variants: Record<string, unknown>[] = [
      { ...base, author: { ...author, id: BOT.id } },
      { ...base, author: { ...author, bot: true } },
      { ...base, webhook_id: '1372139662045982999' },
      { ...base, type: 7 },
      { ...base, content: '  ', attachments: [] },
      { ...base, content: '<@1372139662045982780>', attachments: [] },
    ];
    for (const raw of variants) expect(normalizeMessage(parsed(raw), raw, { bot: BOT, kind: 'dm' }, NOW)).toBeNull();
  });
});

describe('parseMessageCreate', () => {
  it.each([
    [null, 'payload is not an object'],
    [{ id: '1', channel_id: '2', type: 0, content: 'x' }, 'author is missing'],
    [{ id: 'x', channel_id: '2', type: 0, content: 'x', author: { id: '3' } }, 'id is not a snowflake'],
    [{ id: '1', channel_id: '2', type: 0, content: 5, author: { id: '3' } }, 'content is not a string'],
    [{ id: '1', channel_id: '2', content: 'x', author: { id: '3' } }, 'type is missing'],
    [
      { id: '1', channel_id: '2', type: 0, content: 'x', author: { id: '3' }, mentions: 'all' },
      'mentions is not an array',
    ],
    [
      { id: '1', channel_id: '2', type: 0, content: 'x', author: { id: '3' }, attachments: [{ id: '4' }] },
      'attachments[0].url is missing',
    ],
  ])('reports %j as "%s"', (raw, problem) => {
    expect(parseMessageCreate(raw)).toMatchObject({ ok: false, problem });
  });
});

describe('slash command interactions', () => {
  it('turns a guild command with a text option into `/name text`, keyed by the interaction id', () => {
    const raw = fixture('interaction-create-guild');
    const result = parseInteractionCreate(raw);
    if (result.ok !== true) throw new Error('not parsed');
    expect(result.value).toMatchObject({ applicationId: BOT.id, channelId: '805823456780353600', name: 'queue' });
    expect(commandEvent(result.value, raw, NOW)).toEqual({
      kind: 'text',
      platform: 'discord',
      messageId: '1372152642316470353',
      text: '/queue draft the release notes',
      internal: false,
      receivedAt: NOW,
      raw,
      source: {
        platform: 'discord',
        chatId: '805823456780353600',
        chatType: 'group',
        userId: '287259985630953472',
        userName: 'Ada',
        mentioned: true,
        repliedToBot: false,
      },
    });
  });

  it('turns a DM command into a dm event from the interaction user', () => {
    const raw = fixture('interaction-create-dm');
    const result = parseInteractionCreate(raw);
    if (result.ok !== true) throw new Error('not parsed');
    const event = commandEvent(result.value, raw, NOW);
    expect(event.text).toBe('/help');
    expect(event.source).toMatchObject({ chatType: 'dm', chatId: '1372147790471254056', userId: '287259985630953472' });
  });

  it('flattens subcommands and non-string options into the arguments', () => {
    const raw = {
      ...fixture('interaction-create-guild'),
      data: {
        type: 1,
        name: 'remind',
        options: [
          {
            type: 1,
            name: 'add',
            options: [
              { type: 4, name: 'minutes', value: 15 },
              { type: 3, name: 'what', value: ' stretch ' },
            ],
          },
        ],
      },
    };
    const result = parseInteractionCreate(raw);
    expect(result.ok === true && commandEvent(result.value, raw, NOW).text).toBe('/remind add 15 stretch');
  });

  it('ignores components and context menus, and reports malformed commands', () => {
    expect(parseInteractionCreate({ id: '1', type: 3 })).toMatchObject({ ok: 'ignored' });
    expect(parseInteractionCreate({ ...fixture('interaction-create-dm'), data: { type: 2, name: 'x' } })).toMatchObject(
      { ok: 'ignored' },
    );
    expect(parseInteractionCreate({ ...fixture('interaction-create-dm'), token: undefined })).toMatchObject({
      ok: false,
      problem: 'token is missing',
      id: '1372153310345982081',
    });
    expect(parseInteractionCreate({ ...fixture('interaction-create-dm'), user: undefined })).toMatchObject({
      ok: false,
      problem: 'user is missing',
    });
  });
});

describe('channel kinds and files', () => {
  it('maps channel types', () => {
    expect([0, 1, 2, 5, 10, 11, 12, 15].map(kindOfChannelType)).toEqual([
      'group',
      'dm',
      'group',
      'group',
      'thread',
      'thread',
      'thread',
      'group',
    ]);
  });

  it('uses channel_type, then the absence of a guild, then the lookup', async () => {
    const never = async (): Promise<number> => {
      throw new Error('no lookup expected');
    };
    expect(await resolveChannelKind({ channelId: '1', channelType: 11, guildId: '2' }, never)).toBe('thread');
    expect(await resolveChannelKind({ channelId: '1' }, never)).toBe('dm');
    expect(await resolveChannelKind({ channelId: '1', guildId: '2' }, async () => 12)).toBe('thread');
    expect(await resolveChannelKind({ channelId: '1', guildId: '2' }, async () => undefined)).toBe('group');
  });

  it('names files safely and sorts them by content type', () => {
    expect(safeFileName('../../etc/passwd')).toBe('passwd');
    expect(safeFileName('my report (final).pdf')).toBe('my_report_final_.pdf');
    expect(safeFileName('...')).toBe('file');
    expect(['image/webp', 'audio/ogg', 'video/mp4', 'application/zip', undefined].map(attachmentKind)).toEqual([
      'photo',
      'audio',
      'video',
      'document',
      'document',
    ]);
  });
});
