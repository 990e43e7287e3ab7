// Inbound events for the fake Matrix homeserver (test/fakes/matrix-server.ts), shaped as a client
// such as Element sends them and the server hands them out in /sync: `m.room.message` with
// `m.text` (a mention as a pill in `formatted_body` and `m.mentions`, Matrix 1.7), a thread reply
// (`m.thread` relation with its reply fallback), a rich reply, a file (`m.image` / `m.audio` with
// the voice flag / `m.file`, by `mxc://` URI), an encrypted event, and the bot's invite.
import { randomBytes } from 'node:crypto';

export type MatrixEvent = Record<string, unknown>;

export interface MatrixPerson {
  userId: string;
  displayName: string;
}

export interface MessageOptions {
  /** how the bot is addressed: a pill with `m.mentions` (Element), a pill only (older clients), its name in the text */
  mention?: 'pill' | 'legacy-pill' | 'name';
  /** a reply in this thread (its root event id) */
  threadRoot?: string;
  /** a rich reply to this event (its sender `replyToSender`) */
  replyTo?: string;
  replyToSender?: string;
  /** a file: uploaded to the fake's content repository first, the message carries its mxc:// URI */
  file?: {
    mxc: string;
    name: string;
    mimeType: string;
    size: number;
    msgtype: 'm.image' | 'm.audio' | 'm.file' | 'm.video';
    voice?: boolean;
  };
}

let counter = 0;

/** An event id of room version 4+ (`$` and 43 url-safe base64 characters). */
export const eventIdOf = (): string => `$${randomBytes(32).toString('base64url').slice(0, 43)}`;

/** An `m.room.message` from `from`, with the bot (`bot`) addressed as `options.mention` says. */
export function messageEvent(
  from: MatrixPerson,
  text: string,
  bot: MatrixPerson,
  options: MessageOptions = {},
): MatrixEvent {
  counter += 1;
  const content: Record<string, unknown> = { msgtype: 'm.text', body: text };
  if (options.mention !== undefined) {
    const pill = `<a href="https://matrix.to/#/${bot.userId}">${bot.displayName}</a>`;
    if (options.mention === 'name') {
      content.body = `${bot.displayName}: ${text}`;
    } else {
      content.body = `${bot.displayName}: ${text}`;
      content.format = 'org.matrix.custom.html';
      content.formatted_body = `${pill}: ${text}`;
      if (options.mention === 'pill') content['m.mentions'] = { user_ids: [bot.userId] };
    }
  }
  if (options.replyTo !== undefined && options.threadRoot === undefined) {
    const author = options.replyToSender ?? bot.userId;
    content.body = `> <${author}> earlier message\n\n${String(content.body)}`;
    content['m.relates_to'] = { 'm.in_reply_to': { event_id: options.replyTo } };
  }
  if (options.threadRoot !== undefined) {
    content['m.relates_to'] = {
      rel_type: 'm.thread',
      event_id: options.threadRoot,
      is_falling_back: true,
      'm.in_reply_to': { event_id: options.replyTo ?? options.threadRoot },
    };
  }
  if (options.file !== undefined) {
    const f = options.file;
    Object.assign(content, {
      msgtype: f.msgtype,
      body: text === '' ? f.name : text,
      ...(text === '' ? {} : { filename: f.name }),
      url: f.mxc,
      info: { mimetype: f.mimeType, size: f.size },
      ...(f.voice ? { 'org.matrix.msc3245.voice': {}, 'org.matrix.msc1767.audio': { duration: 1000 } } : {}),
    });
  }
  return {
    type: 'm.room.message',
    event_id: eventIdOf(),
    sender: from.userId,
    origin_server_ts: 1_700_000_000_000 + counter,
    content,
    unsigned: { age: 10 },
  };
}

/** An `m.room.encrypted` event (Megolm), as an encrypted room's messages arrive. */
export function encryptedEvent(from: MatrixPerson): MatrixEvent {
  counter += 1;
  return {
    type: 'm.room.encrypted',
    event_id: eventIdOf(),
    sender: from.userId,
    origin_server_ts: 1_700_000_000_000 + counter,
    content: {
      algorithm: 'm.megolm.v1.aes-sha2',
      ciphertext: randomBytes(48).toString('base64'),
      device_id: 'ABCDEFGHIJ',
      sender_key: randomBytes(32).toString('base64'),
      session_id: randomBytes(32).toString('base64'),
    },
    unsigned: { age: 10 },
  };
}

/** The membership event of `who` joining, as room state and timelines carry it. */
export function memberEvent(
  who: MatrixPerson,
  membership: 'join' | 'leave' | 'invite',
  sender = who.userId,
): MatrixEvent {
  counter += 1;
  return {
    type: 'm.room.member',
    state_key: who.userId,
    event_id: eventIdOf(),
    sender,
    origin_server_ts: 1_700_000_000_000 + counter,
    content: { membership, displayname: who.displayName },
  };
}
