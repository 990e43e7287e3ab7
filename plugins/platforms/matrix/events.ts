/**
 * One timeline event of a joined room as what the gateway takes: a user's message (text, files
 * still to fetch from the content repository, mention and thread facts), an encrypted event (the
 * adapter says once that it cannot read them), or nothing with the reason for the log (the bot's
 * own echo, reactions, redactions, edits, notices, state, unknown types, malformed events). Never
 * throws: an event a newer server or client sends that this adapter does not know is skipped.
 */
import { pendingAttachment, userMessage } from '@hermes/plugin-sdk';
import type { Attachment, MessageEvent } from '@hermes/protocol';
import { isRecord } from './client.js';
import type { BotIdentity } from './identity.js';
import { mentionsBot, withoutMention, withoutReplyFallback } from './mentions.js';
import { PLATFORM } from './settings.js';

type Json = Record<string, unknown>;

/** The most a real homeserver lets one event carry (the whole event: 65,536 bytes) */
export const MAX_BODY_CHARS = 65_536;

/** A file of a message, fetched from the content repository by its `mxc://<server>/<media id>`. */
export interface PendingMatrixFile {
  server: string;
  mediaId: string;
  fileName: string;
  attachment: Attachment;
}

/** What the adapter knows about the room an event came in. */
export interface RoomView {
  roomId: string;
  /** the bot and one other person: a direct chat */
  direct: boolean;
  /** the sender's display name in the room, when known */
  displayName(userId: string): string | undefined;
  /** whether the bot sent the event (a reply to it addresses the bot); undefined when not known here */
  isBotEvent(eventId: string): boolean | undefined;
  /** whether the bot has answered in this thread (follow-ups there address it) */
  botInThread(threadRoot: string): boolean;
}

export type Inbound =
  | {
      kind: 'message';
      event: MessageEvent;
      files: PendingMatrixFile[];
      /** the event it replies to, when the adapter could not tell whether it is the bot's */
      unknownReplyTo?: string;
    }
  | { kind: 'encrypted'; sender: string }
  | { kind: 'skip'; reason: string /** routine traffic (echoes, reactions) is logged at debug */; routine: boolean };

const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const skip = (reason: string, routine = false): Inbound => ({ kind: 'skip', reason, routine });

const MXC = /^mxc:\/\/([A-Za-z0-9.:[\]-]+)\/([A-Za-z0-9_-]+)$/;
const MEDIA_TYPES = new Set(['m.image', 'm.file', 'm.audio', 'm.video']);

/** The skip reason of an event that is not a message. */
function otherType(type: string): Inbound {
  switch (type) {
    case 'm.reaction':
      return skip('a reaction', true);
    case 'm.room.redaction':
      return skip('a redaction', true);
    case 'm.sticker':
      return skip('a sticker (not handled)');
    case 'm.room.member':
    case 'm.room.encryption':
    case 'm.room.name':
    case 'm.room.topic':
    case 'm.room.create':
    case 'm.room.power_levels':
    case 'm.room.join_rules':
      return skip(`a state event (${type})`, true);
    default:
      return skip(`an event of type "${type.slice(0, 80)}" (not handled)`);
  }
}

/** A media message's file, or a skip reason (an encrypted file, a malformed URL). */
function fileOf(content: Json, msgtype: string): PendingMatrixFile | string {
  const url = str(content.url);
  if (url === undefined) return isRecord(content.file) ? 'an encrypted file (not supported)' : 'a file without a url';
  const match = MXC.exec(url);
  if (match === null) return 'a file whose url is not an mxc:// URI';
  const info = isRecord(content.info) ? content.info : {};
  const mimeType = str(info.mimetype)?.split(';')[0]?.trim().toLowerCase();
  const size =
    typeof info.size === 'number' && Number.isSafeInteger(info.size) && info.size >= 0 ? info.size : undefined;
  const kind: Attachment['kind'] | undefined =
    msgtype === 'm.image' ? 'photo' : msgtype === 'm.audio' ? 'audio' : msgtype === 'm.video' ? 'video' : undefined;
  const name = str(content.filename) ?? str(content.body) ?? 'file';
  const { fileName, attachment } = pendingAttachment({ name, mimeType, size, ...(kind ? { kind } : {}) });
  return { server: match[1] ?? '', mediaId: match[2] ?? '', fileName, attachment };
}

/**
 * Reads one timeline event of `room`; `receivedAt` is when the sync brought it. `event` is the
 * event as the server sent it (anything JSON).
 */
export function readTimelineEvent(event: unknown, room: RoomView, bot: BotIdentity, receivedAt: number): Inbound {
  if (!isRecord(event)) return skip('a timeline entry that is not an object');
  const eventId = str(event.event_id);
  const sender = str(event.sender);
  const type = str(event.type);
  if (eventId === undefined || sender === undefined || type === undefined) {
    return skip('an event without an event_id, sender or type');
  }
  if (sender === bot.userId) return skip("the bot's own event", true);
  if (type === 'm.room.encrypted') return { kind: 'encrypted', sender };
  if (type !== 'm.room.message') return otherType(type);
  const content = event.content;
  if (!isRecord(content) || Object.keys(content).length === 0) return skip('a redacted message', true);
  const relation = isRecord(content['m.relates_to']) ? content['m.relates_to'] : {};
  if (relation.rel_type === 'm.replace') return skip('an edit of an earlier message (not handled)');
  const msgtype = str(content.msgtype) ?? '';
  if (msgtype === 'm.notice') return skip('a notice (what bots send; not answered)');
  const body = content.body;
  if (typeof body !== 'string') return skip('a message without a body');
  if (body.length > MAX_BODY_CHARS) return skip(`a body of ${body.length} characters, over Matrix's event limit`);

  const files: PendingMatrixFile[] = [];
  let text = body;
  if (MEDIA_TYPES.has(msgtype)) {
    const file = fileOf(content, msgtype);
    if (typeof file === 'string') return skip(file);
    files.push(file);
    // Matrix 1.10 captions: a `filename` other than the body makes the body a caption
    const filename = str(content.filename);
    text = filename !== undefined && filename !== body ? body : '';
  } else if (msgtype === 'm.location') {
    text = `[location ${str(content.geo_uri) ?? '?'}${body.trim() === '' ? '' : ` (${body.trim()})`}]`;
  }

  const inReplyTo = isRecord(relation['m.in_reply_to']) ? str(relation['m.in_reply_to'].event_id) : undefined;
  const threadRoot = relation.rel_type === 'm.thread' ? str(relation.event_id) : undefined;
  let quotedAuthor: string | undefined;
  if (inReplyTo !== undefined && relation.is_falling_back !== true) {
    const stripped = withoutReplyFallback(text);
    text = stripped.text;
    quotedAuthor = stripped.quotedAuthor;
  }
  const mentioned = mentionsBot(content, text, bot);
  if (mentioned) text = withoutMention(text, bot);
  if (text.trim() === '' && files.length === 0) return skip('a message without text or files', true);

  // a reply in a thread points at the thread's newest event for older clients (is_falling_back): not a reply
  const replyTo = relation.is_falling_back === true ? undefined : inReplyTo;
  const known = replyTo === undefined ? false : room.isBotEvent(replyTo);
  const repliedToBot =
    known === true ||
    quotedAuthor === bot.userId ||
    (threadRoot !== undefined && (room.isBotEvent(threadRoot) === true || room.botInThread(threadRoot)));
  const name = room.displayName(sender);
  const { event: message } = userMessage(
    {
      messageId: eventId,
      source: {
        platform: PLATFORM,
        chatId: room.roomId,
        chatType: room.direct ? 'dm' : 'group',
        userId: sender,
        ...(name === undefined ? {} : { userName: name }),
        ...(threadRoot === undefined ? {} : { threadId: threadRoot }),
        ...(mentioned ? { mentioned: true } : {}),
        ...(repliedToBot ? { repliedToBot: true } : {}),
      },
      receivedAt,
      raw: event,
      text,
    },
    files,
  );
  const unknownReplyTo = !repliedToBot && known === undefined ? replyTo : undefined;
  return { kind: 'message', event: message, files, ...(unknownReplyTo === undefined ? {} : { unknownReplyTo }) };
}
