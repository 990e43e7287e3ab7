/**
 * One inbound WhatsApp message as what the gateway takes: a user's message (text, or files still to
 * download with their caption), a press of one of the bot's reply buttons, or nothing (a reaction,
 * an unsupported type) with the reason for the log. Every chat is a direct one: the Cloud API's
 * chats are between one user and the business number, the user's WhatsApp id (`wa_id`) naming both.
 */
import { pendingAttachment, userMessage } from '@hermes/plugin-sdk';
import type { Attachment, MessageEvent } from '@hermes/protocol';
import { parseActionButtonData, parseApprovalButtonData } from '@hermes/protocol';
import { isRecord } from './graph-api.js';
import type { WaMessage } from './payload.js';
import { PLATFORM } from './settings.js';

/** A file of a message, fetched by its media id (GET /{media-id}, then its URL). */
export interface PendingMedia {
  mediaId: string;
  fileName: string;
  attachment: Attachment;
}

export type Inbound =
  | { kind: 'message'; event: MessageEvent; files: PendingMedia[] }
  | { kind: 'press'; data: string; userId: string; messageId: string }
  | { kind: 'skip'; reason: string };

type Json = Record<string, unknown>;

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

const EXTENSIONS: Readonly<Record<string, string>> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'audio/ogg': 'ogg',
  'audio/mpeg': 'mp3',
  'audio/mp4': 'm4a',
  'audio/aac': 'aac',
  'audio/amr': 'amr',
  'video/mp4': 'mp4',
  'video/3gpp': '3gp',
};

/** `audio/ogg; codecs=opus` → `audio/ogg` */
const bareMime = (mime: string | undefined): string | undefined =>
  mime?.split(';')[0]?.trim().toLowerCase() || undefined;

/** The media object of a file message (`image`, `audio`, ...) as a file to download; undefined when it has no id. */
function mediaFile(type: string, media: Json): PendingMedia | undefined {
  const mediaId = str(media.id);
  if (mediaId === undefined || mediaId === '') return undefined;
  const mimeType = bareMime(str(media.mime_type));
  const ext = mimeType === undefined ? undefined : EXTENSIONS[mimeType];
  const voice = type === 'audio' && (media.voice === true || mimeType === 'audio/ogg');
  const base = type === 'image' ? 'photo' : voice ? 'voice' : type;
  const name = str(media.filename) ?? (ext === undefined ? base : `${base}.${ext}`);
  const kind: Attachment['kind'] =
    type === 'image' || type === 'sticker'
      ? 'photo'
      : type === 'document'
        ? 'document'
        : type === 'audio'
          ? 'audio'
          : 'video';
  const { fileName, attachment } = pendingAttachment({ name, mimeType, kind });
  return { mediaId, fileName, attachment };
}

/** A location as text the model can read. */
function locationText(location: Json): string {
  const place = [str(location.name), str(location.address)].filter(Boolean).join(', ');
  return `[location ${String(location.latitude)}, ${String(location.longitude)}${place === '' ? '' : ` (${place})`}]`;
}

/** The text and files of a message by its type; undefined for a type the gateway cannot use. */
function content(message: WaMessage): { text: string; files: PendingMedia[] } | string {
  const body = message[message.type];
  const part: Json = isRecord(body) ? body : {};
  switch (message.type) {
    case 'text':
      return typeof part.body === 'string' ? { text: part.body, files: [] } : 'a text message without a body';
    case 'image':
    case 'audio':
    case 'video':
    case 'document':
    case 'sticker': {
      const file = mediaFile(message.type, part);
      if (file === undefined)
        return `${/^[aeiou]/.test(message.type) ? 'an' : 'a'} ${message.type} message without a media id`;
      return { text: str(part.caption) ?? '', files: [file] };
    }
    case 'location':
      return { text: locationText(part), files: [] };
    case 'button': // a template's quick-reply button: its text is the user's answer
      return typeof part.text === 'string' ? { text: part.text, files: [] } : 'a button message without text';
    case 'interactive': {
      const reply = isRecord(part.button_reply)
        ? part.button_reply
        : isRecord(part.list_reply)
          ? part.list_reply
          : undefined;
      const title = reply === undefined ? undefined : str(reply.title);
      return title === undefined ? 'an interactive message without a reply' : { text: title, files: [] };
    }
    default:
      return `message type "${message.type}" is not handled`;
  }
}

/** The id of the bot's button a button reply carries, when it is one of the gateway's (approval or action). */
function pressedButton(message: WaMessage): string | undefined {
  if (message.type !== 'interactive' || !isRecord(message.interactive)) return undefined;
  const reply = message.interactive.button_reply;
  const id = isRecord(reply) ? str(reply.id) : undefined;
  if (id === undefined) return undefined;
  return parseApprovalButtonData(id) !== null || parseActionButtonData(id) !== null ? id : undefined;
}

/** Reads one message; `receivedAt` is the gateway's clock. */
export function normalizeMessage(message: WaMessage, contactName: string | undefined, receivedAt: number): Inbound {
  if (message.type === 'reaction') return { kind: 'skip', reason: 'a reaction' };
  if (message.type === 'unsupported' || message.type === 'unknown')
    return { kind: 'skip', reason: 'a message WhatsApp could not read' };
  if (str(message.group_id) !== undefined)
    return { kind: 'skip', reason: 'a group message (this adapter serves direct chats)' };
  const data = pressedButton(message);
  if (data !== undefined) return { kind: 'press', data, userId: message.from, messageId: message.id };
  const read = content(message);
  if (typeof read === 'string') return { kind: 'skip', reason: read };
  const context = isRecord(message.context) ? message.context : undefined;
  const { event, files } = userMessage(
    {
      messageId: message.id,
      source: {
        platform: PLATFORM,
        chatId: message.from,
        chatType: 'dm',
        userId: message.from,
        ...(contactName === undefined ? {} : { userName: contactName }),
        // a reply quoting one of the bot's messages (context.from names the original's sender)
        ...(context !== undefined && str(context.from) !== undefined && context.from !== message.from
          ? { repliedToBot: true }
          : {}),
      },
      receivedAt,
      raw: message,
      text: read.text,
    },
    read.files,
  );
  return { kind: 'message', event, files };
}
