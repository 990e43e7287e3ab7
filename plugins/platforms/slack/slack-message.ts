/** Reads an untyped Slack `message` / `app_mention` event into a checked SlackMessage, or says why not. */
import { isSlackTs } from './message-ids.js';

/** A file attached to a message, as far as the adapter needs it. */
export interface SlackFileRef {
  id: string;
  name: string;
  mimeType?: string;
  size?: number;
  /** url_private_download, else url_private; undefined when Slack hides the file (file_access) */
  url?: string;
}

export interface SlackMessage {
  type: 'message' | 'app_mention';
  channel: string;
  user: string;
  text: string;
  ts: string;
  channelType?: string;
  threadTs?: string;
  parentUserId?: string;
  files: SlackFileRef[];
}

export type ParsedMessage =
  | { kind: 'message'; message: SlackMessage }
  /** a well-formed event the bot does not answer (bot posts, edits, joins, ...) */
  | { kind: 'ignored'; reason: string }
  /** an event missing what every message has: logged and skipped */
  | { kind: 'malformed'; reason: string };

/** Subtypes that still carry a person's new message; every other subtype is ignored. */
const USER_SUBTYPES: ReadonlySet<string> = new Set(['file_share', 'thread_broadcast', 'me_message']);

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

function fileRef(value: unknown): SlackFileRef | undefined {
  if (!isRecord(value) || !nonEmptyString(value.id)) return undefined;
  const url = [value.url_private_download, value.url_private].find(nonEmptyString);
  const name = [value.name, value.title].find(nonEmptyString) ?? value.id;
  return {
    id: value.id,
    name,
    ...(nonEmptyString(value.mimetype) ? { mimeType: value.mimetype } : {}),
    ...(typeof value.size === 'number' && value.size >= 0 ? { size: value.size } : {}),
    ...(url === undefined ? {} : { url }),
  };
}

/** Checks the fields of a message event; never throws. */
export function parseSlackMessage(event: unknown): ParsedMessage {
  if (!isRecord(event)) return { kind: 'malformed', reason: 'event is not an object' };
  const type = event.type;
  if (type !== 'message' && type !== 'app_mention') {
    return { kind: 'malformed', reason: `unexpected event type ${JSON.stringify(type)}` };
  }
  if ((event.bot_id !== undefined && event.bot_id !== null) || event.subtype === 'bot_message') {
    return { kind: 'ignored', reason: 'bot message' };
  }
  if (event.subtype !== undefined && !(typeof event.subtype === 'string' && USER_SUBTYPES.has(event.subtype))) {
    return { kind: 'ignored', reason: `subtype ${String(event.subtype)}` };
  }
  const { channel, user, ts } = event;
  if (!nonEmptyString(channel) || !nonEmptyString(user) || !isSlackTs(ts)) {
    const missing = [
      nonEmptyString(channel) ? undefined : 'channel',
      nonEmptyString(user) ? undefined : 'user',
      isSlackTs(ts) ? undefined : 'ts',
    ].filter((name) => name !== undefined);
    return { kind: 'malformed', reason: `missing or invalid ${missing.join(', ')}` };
  }
  if (event.text !== undefined && event.text !== null && typeof event.text !== 'string') {
    return { kind: 'malformed', reason: 'text is not a string' };
  }
  if (event.files !== undefined && !Array.isArray(event.files)) {
    return { kind: 'malformed', reason: 'files is not a list' };
  }
  if (event.thread_ts !== undefined && !isSlackTs(event.thread_ts)) {
    return { kind: 'malformed', reason: 'invalid thread_ts' };
  }
  const files = (Array.isArray(event.files) ? event.files : []).map(fileRef).filter((file) => file !== undefined);
  const message: SlackMessage = {
    type,
    channel,
    user,
    text: typeof event.text === 'string' ? event.text : '',
    ts,
    files,
    ...(nonEmptyString(event.channel_type) ? { channelType: event.channel_type } : {}),
    ...(isSlackTs(event.thread_ts) ? { threadTs: event.thread_ts } : {}),
    ...(nonEmptyString(event.parent_user_id) ? { parentUserId: event.parent_user_id } : {}),
  };
  return { kind: 'message', message };
}
