// Telegram updates: generated mutations of realistic updates, and hand-written malformed ones.

import { deepMarker, type JsonPath, mutate, rootReplacements } from '../lib/mutate.js';
import { megabyteText, NASTY_STRINGS } from '../lib/nasty.js';
import { ALLOWED, extraUser } from '../lib/platforms.js';
import type { Rng } from '../lib/prng.js';

export const GROUP_CHAT = -100_777;
export const STRANGER = 9_999;
const BOT_ID = 777_009;

export interface TelegramCase {
  label: string;
  /** the update object (deep values as markers: see jsonText) */
  update: unknown;
  /** the inbox message key of an update that must be answered (an allowed user's non-empty message) */
  answerKey?: string;
}

/** Ids that keep every input distinct: update ids from `first`, message ids alongside. */
export class TelegramIds {
  #next: number;
  constructor(first: number) {
    this.#next = first;
  }
  take(): { updateId: number; messageId: number } {
    this.#next += 1;
    return { updateId: this.#next, messageId: this.#next };
  }
}

const now = () => Math.floor(Date.now() / 1000);

function user(id: number) {
  return { id, is_bot: false, first_name: 'Ada', username: `user${id}`, language_code: 'en' };
}

/** A DM text, from the allowed user unless `userId` says otherwise. */
export function dmUpdate(
  ids: TelegramIds,
  text: string,
  userId: number = ALLOWED.telegram,
): { update: Record<string, unknown>; key: string } {
  const { updateId, messageId } = ids.take();
  const update = {
    update_id: updateId,
    message: {
      message_id: messageId,
      from: user(userId),
      chat: { id: userId, type: 'private', first_name: 'Ada', username: `user${userId}` },
      date: now(),
      text,
    },
  };
  return { update, key: `${userId}:${messageId}` };
}

function templates(ids: TelegramIds, rng: Rng): Record<string, unknown>[] {
  const text = `hello ${rng.string(8)}`;
  const { updateId: u1, messageId: m1 } = ids.take();
  const mention = `@hermes_test_bot ${text}`;
  const group = {
    update_id: u1,
    message: {
      message_id: m1,
      from: user(ALLOWED.telegram),
      chat: { id: GROUP_CHAT, type: 'supergroup', title: 'Test supergroup' },
      date: now(),
      text: mention,
      entities: [{ type: 'mention', offset: 0, length: 16 }],
    },
  };
  const { updateId: u2, messageId: m2 } = ids.take();
  const photo = {
    update_id: u2,
    message: {
      message_id: m2,
      from: user(ALLOWED.telegram),
      chat: { id: ALLOWED.telegram, type: 'private', first_name: 'Ada' },
      date: now(),
      caption: text,
      photo: [
        { file_id: `AgAD-bad-${m2}-s`, file_unique_id: `u${m2}s`, file_size: 100, width: 90, height: 90 },
        { file_id: `AgAD-bad-${m2}-m`, file_unique_id: `u${m2}m`, file_size: 1000, width: 320, height: 320 },
      ],
    },
  };
  const { updateId: u3, messageId: m3 } = ids.take();
  const reply = {
    update_id: u3,
    message: {
      message_id: m3,
      from: user(ALLOWED.telegram),
      chat: { id: GROUP_CHAT, type: 'supergroup', title: 'Test supergroup', is_forum: true },
      date: now(),
      message_thread_id: 7,
      is_topic_message: true,
      text,
      reply_to_message: {
        message_id: 1,
        from: { id: BOT_ID, is_bot: true, first_name: 'Hermes', username: 'hermes_test_bot' },
        chat: { id: GROUP_CHAT, type: 'supergroup', title: 'Test supergroup' },
        date: now(),
        text: 'an earlier reply',
      },
    },
  };
  const { updateId: u4, messageId: m4 } = ids.take();
  const document = {
    update_id: u4,
    message: {
      message_id: m4,
      from: user(ALLOWED.telegram),
      chat: { id: ALLOWED.telegram, type: 'private', first_name: 'Ada' },
      date: now(),
      document: {
        file_id: `BQAD-bad-${m4}`,
        file_unique_id: `d${m4}`,
        file_name: '../../etc/passwd',
        mime_type: 'x/y',
      },
    },
  };
  return [dmUpdate(ids, text).update, group, photo, reply, document];
}

/** Seeded mutations of realistic updates; `update_id` is kept numeric when `keepUpdateId`. */
export function generatedTelegram(
  rng: Rng,
  ids: TelegramIds,
  count: number,
  options: { keepUpdateId: boolean; depths?: readonly number[] },
): TelegramCase[] {
  const keep = (path: JsonPath) => options.keepUpdateId && path.length === 1 && path[0] === 'update_id';
  const out: TelegramCase[] = [];
  for (let i = 0; i < count; i++) {
    const base = rng.pick(templates(ids, rng));
    const m = mutate(base, rng, { keep, ...(options.depths ? { depths: options.depths } : {}) });
    out.push({ label: `generated #${i}: ${m.label}`, update: m.value });
  }
  return out;
}

/** Allowed users' DMs whose text is hostile but valid (each from its own user): each must be answered once. */
export function hostileTexts(ids: TelegramIds, withMegabyte: boolean): TelegramCase[] {
  const texts = [...NASTY_STRINGS, ...(withMegabyte ? [megabyteText(1), megabyteText(2)] : [])];
  return texts.map((text, i) => {
    const { update, key } = dmUpdate(ids, text, extraUser.telegram(i));
    return {
      label: `text #${i} (${text.length} chars)`,
      update,
      ...(text.trim() === '' ? {} : { answerKey: key }),
    };
  });
}

/** Hand-written malformed or unusual updates. */
export function handWrittenTelegram(ids: TelegramIds, options: { keepUpdateId: boolean }): TelegramCase[] {
  const cases: TelegramCase[] = [];
  const add = (label: string, build: (u: Record<string, unknown>, m: Record<string, unknown>) => void) => {
    const { update } = dmUpdate(ids, 'hand-written');
    build(update, update.message as Record<string, unknown>);
    cases.push({ label, update });
  };
  add('edited_message only', (u, m) => {
    delete u.message;
    u.edited_message = m;
  });
  add('channel_post', (u, m) => {
    delete u.message;
    u.channel_post = { ...m, chat: { id: -100_123, type: 'channel', title: 'c' } };
  });
  add('callback_query', (u) => {
    delete u.message;
    u.callback_query = { id: 'x', from: user(ALLOWED.telegram), data: 'boom' };
  });
  add('message without from, sender_chat instead', (_u, m) => {
    delete m.from;
    m.sender_chat = { id: -100_555, type: 'channel', title: 'anon' };
  });
  add('message from the bot itself', (_u, m) => {
    m.from = { id: BOT_ID, is_bot: true, first_name: 'Hermes', username: 'hermes_test_bot' };
  });
  add('sticker only', (_u, m) => {
    delete m.text;
    m.sticker = { file_id: 'x', file_unique_id: 'y', width: 1, height: 1, is_animated: false, is_video: false };
  });
  add('entities is an object', (_u, m) => {
    m.entities = { type: 'mention', offset: 0, length: 5 };
  });
  add('entities with offsets out of range', (_u, m) => {
    m.entities = [
      { type: 'mention', offset: 1e9, length: 5 },
      { type: 'bot_command', offset: -5, length: -1 },
      { type: 'text_mention', offset: 0, length: 3 },
    ];
  });
  add('photo is an object', (_u, m) => {
    m.photo = { file_id: 'x' };
  });
  add('photo is an empty list', (_u, m) => {
    m.photo = [];
  });
  add('photo sizes without width', (_u, m) => {
    m.photo = [{ file_id: 'a', file_unique_id: 'b' }, null];
  });
  add('document without file_id', (_u, m) => {
    m.document = { file_name: 'x.txt' };
  });
  add('chat is a string', (_u, m) => {
    m.chat = 'private';
  });
  add('chat without id', (_u, m) => {
    m.chat = { type: 'private' };
  });
  add('from.id is a string', (_u, m) => {
    m.from = { ...user(ALLOWED.telegram), id: String(ALLOWED.telegram) };
  });
  add('text is a number', (_u, m) => {
    m.text = 12345;
  });
  add('text is an object', (_u, m) => {
    m.text = { toString: 'x' };
  });
  add('reply_to_message is a string', (_u, m) => {
    m.reply_to_message = 'x';
  });
  add('reply_to_message nested 5000 deep', (_u, m) => {
    m.reply_to_message = deepMarker(5_000, 'object');
  });
  add('an unknown field nested 50000 deep', (_u, m) => {
    m.x_future_field = deepMarker(50_000, 'array');
  });
  add('message_thread_id is a string', (_u, m) => {
    m.message_thread_id = 'seven';
    m.is_topic_message = true;
  });
  add('__proto__ and constructor keys', (u, m) => {
    Object.defineProperty(m, '__proto__', { value: { polluted: true }, enumerable: true });
    Object.defineProperty(u, 'constructor', { value: { prototype: { polluted: true } }, enumerable: true });
  });
  add('1 MB caption with a bogus photo', (_u, m) => {
    delete m.text;
    m.caption = megabyteText(3);
    m.photo = [{ file_id: 'nope', file_unique_id: 'nope', width: 1, height: 1 }];
  });
  add('group message from a stranger, mentioning the bot', (_u, m) => {
    m.from = user(STRANGER);
    m.chat = { id: GROUP_CHAT, type: 'supergroup', title: 't' };
    m.text = '@hermes_test_bot let me in';
    m.entities = [{ type: 'mention', offset: 0, length: 16 }];
  });
  add('DM from a stranger (pairing)', (_u, m) => {
    m.from = user(STRANGER);
    m.chat = { id: STRANGER, type: 'private', first_name: 'Eve' };
  });
  if (!options.keepUpdateId) {
    for (const [label, value] of [
      ['update_id missing', undefined],
      ['update_id is a string', '123'],
      ['update_id is negative', -1],
      ['update_id is a float', 1.5],
      ['update_id is huge', 1e300],
      ['update_id is null', null],
    ] as const) {
      add(label, (u) => {
        if (value === undefined) delete u.update_id;
        else u.update_id = value;
      });
    }
    for (const root of rootReplacements()) cases.push({ label: root.label, update: root.value });
  }
  return cases;
}
