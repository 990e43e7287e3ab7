/**
 * What the bot sends: a text (`m.room.message`, HTML in `formatted_body` with its plain `body`), a
 * file (uploaded to the content repository, then sent by its `mxc://` URI), an edit (`m.replace`:
 * streamed answers), a reaction (`m.annotation`, the earlier one redacted) and the typing notice.
 * Every event goes out with `PUT /rooms/{room}/send/{type}/{txnId}`: the transaction id comes from
 * the outbox row's idempotency key, so a try repeated after a crash or a 5xx is answered by the
 * server with the event it already has (Synapse keeps transaction ids for about 30 minutes per
 * access token) instead of being posted twice. Each send answers a SendResult and never throws.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { EditMessage, OutboundMedia, OutboundMessage, Reaction, SendResult } from '@hermes/protocol';
import { apiPath, isRecord, type MatrixClient } from './client.js';
import { htmlToPlain } from './format/html-to-plain.js';
import type { RoomDirectory } from './rooms.js';
import { toSendFailure } from './send-errors.js';

type Json = Record<string, unknown>;

export interface Sender {
  client: MatrixClient;
  /** the bot's user id, once whoami said it (typing needs it) */
  userId(): string | undefined;
  rooms: RoomDirectory;
  /** the bot's reaction events: `<event id>|<emoji>` → the reaction's event id (to redact it when replaced) */
  reactions: Map<string, string>;
}

const REACTIONS_MAX = 10_000;

/** The transaction id of a send: from the outbox row's key (the same on every try), else a fresh one. */
export const txnIdOf = (idempotencyKey: string | undefined): string =>
  idempotencyKey === undefined ? `hermes.${randomUUID()}` : `hermes.${idempotencyKey}`;

/** A text's content: `formatted` text is Matrix HTML (its plain body derived), else plain text as is. */
export function textContent(text: string, formatted: boolean): Json {
  return formatted
    ? { msgtype: 'm.text', body: htmlToPlain(text), format: 'org.matrix.custom.html', formatted_body: text }
    : { msgtype: 'm.text', body: text };
}

/**
 * `m.relates_to` of a message in a thread and/or replying to a message. A reply target that is not
 * an event id is dropped (the gateway cuts message ids at their last `:`, which leaves an old room
 * version's `$id:server` as its server name).
 */
function relationOf(threadId: string | undefined, target: string | undefined): Json {
  const replyTo = target?.startsWith('$') ? target : undefined;
  if (threadId !== undefined) {
    return {
      'm.relates_to': {
        rel_type: 'm.thread',
        event_id: threadId,
        is_falling_back: replyTo === undefined,
        'm.in_reply_to': { event_id: replyTo ?? threadId },
      },
    };
  }
  return replyTo === undefined ? {} : { 'm.relates_to': { 'm.in_reply_to': { event_id: replyTo } } };
}

/** One event through PUT /send; resolves with its event id. */
async function putEvent(sender: Sender, roomId: string, type: string, content: Json, txnId: string): Promise<string> {
  const answer = await sender.client.request(
    'PUT',
    apiPath('/_matrix/client/v3/rooms/{}/send/{}/{}', roomId, type, txnId),
    {
      body: content,
    },
  );
  const eventId = isRecord(answer) ? answer.event_id : undefined;
  if (typeof eventId !== 'string' || eventId === '') throw new Error(`send answered without an event_id`);
  sender.rooms.rememberSent(roomId, eventId);
  return eventId;
}

async function sendEvent(
  sender: Sender,
  roomId: string,
  content: Json,
  options: { threadId?: string | undefined; idempotencyKey?: string | undefined },
): Promise<SendResult> {
  try {
    const eventId = await putEvent(sender, roomId, 'm.room.message', content, txnIdOf(options.idempotencyKey));
    if (options.threadId !== undefined) sender.rooms.markThread(roomId, options.threadId);
    return { ok: true, messageIds: [eventId] };
  } catch (error) {
    return toSendFailure(error);
  }
}

/** A text message; in a thread when `threadId` is set, replying to `replyToMessageId`. */
export function sendText(sender: Sender, message: OutboundMessage): Promise<SendResult> {
  const content = {
    ...textContent(message.text, message.formatted),
    ...relationOf(message.threadId, message.replyToMessageId),
  };
  return sendEvent(sender, message.chatId, content, message);
}

/** The msgtype a file is sent as. */
function msgtypeOf(media: OutboundMedia): string {
  if (media.kind === 'image') return 'm.image';
  if (media.kind === 'voice' || media.mimeType.startsWith('audio/')) return 'm.audio';
  if (media.mimeType.startsWith('video/')) return 'm.video';
  if (media.mimeType.startsWith('image/')) return 'm.image';
  return 'm.file';
}

/** A file: uploaded (`POST /_matrix/media/v3/upload`), then sent as an image, audio, video or file message. */
export async function sendMedia(sender: Sender, media: OutboundMedia): Promise<SendResult> {
  let data: Buffer;
  try {
    data = await readFile(media.path);
  } catch (error) {
    return { ok: false, error: 'bad_format', message: `cannot read ${media.fileName}: ${String(error)}` };
  }
  let uri: string;
  try {
    uri = await sender.client.upload(data, media.mimeType, media.fileName);
  } catch (error) {
    return toSendFailure(error);
  }
  const content = {
    msgtype: msgtypeOf(media),
    body: media.fileName,
    filename: media.fileName,
    url: uri,
    info: { mimetype: media.mimeType, size: data.length },
    ...(media.kind === 'voice' ? { 'org.matrix.msc3245.voice': {}, 'org.matrix.msc1767.audio': {} } : {}),
    ...relationOf(media.threadId, media.replyToMessageId),
  };
  return sendEvent(sender, media.chatId, content, media);
}

/** A new text for a message the bot sent (`m.replace`); the answer names the edited message. */
export async function editMessage(sender: Sender, edit: EditMessage): Promise<SendResult> {
  const fresh = textContent(edit.text, edit.formatted);
  const content = {
    msgtype: 'm.text',
    body: `* ${String(fresh.body)}`,
    'm.new_content': fresh,
    'm.relates_to': { rel_type: 'm.replace', event_id: edit.messageId },
  };
  try {
    await putEvent(sender, edit.chatId, 'm.room.message', content, txnIdOf(undefined));
    return { ok: true, messageIds: [edit.messageId] };
  } catch (error) {
    return toSendFailure(error);
  }
}

/** Removes an event the bot sent (a replaced reaction). */
async function redact(sender: Sender, roomId: string, eventId: string): Promise<void> {
  await sender.client.request(
    'PUT',
    apiPath('/_matrix/client/v3/rooms/{}/redact/{}/{}', roomId, eventId, txnIdOf(undefined)),
    {
      body: {},
    },
  );
}

/** The bot's reaction on a user's message; the one it `replaces` is redacted first. */
export async function sendReaction(sender: Sender, reaction: Reaction): Promise<SendResult> {
  const key = (emoji: string) => `${reaction.messageId}|${emoji}`;
  const earlier = reaction.replaces === undefined ? undefined : sender.reactions.get(key(reaction.replaces));
  if (earlier !== undefined) {
    try {
      await redact(sender, reaction.chatId, earlier);
    } catch (error) {
      // gone already (redacted by a moderator), or not ours to remove: the new one goes anyway
      const failure = toSendFailure(error);
      if (failure.error === 'rate_limited' || failure.error === 'transient') return failure;
    }
    sender.reactions.delete(key(reaction.replaces ?? ''));
  }
  try {
    const content = {
      'm.relates_to': { rel_type: 'm.annotation', event_id: reaction.messageId, key: reaction.emoji },
    };
    const eventId = await putEvent(sender, reaction.chatId, 'm.reaction', content, txnIdOf(undefined));
    sender.reactions.set(key(reaction.emoji), eventId);
    if (sender.reactions.size > REACTIONS_MAX) sender.reactions.delete(sender.reactions.keys().next().value as string);
    return { ok: true, messageIds: [eventId] };
  } catch (error) {
    return toSendFailure(error);
  }
}

/** Shows (or ends) "typing…" in the room for up to `timeoutMs`. */
export async function sendTyping(sender: Sender, roomId: string, typing: boolean, timeoutMs = 30_000): Promise<void> {
  const userId = sender.userId();
  if (userId === undefined) return;
  await sender.client.request('PUT', apiPath('/_matrix/client/v3/rooms/{}/typing/{}', roomId, userId), {
    body: typing ? { typing: true, timeout: timeoutMs } : { typing: false },
  });
}
