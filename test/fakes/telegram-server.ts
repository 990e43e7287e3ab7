// A protocol-faithful fake Telegram Bot API on loopback, driven by the real grammy client.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Chat, File, Message, MessageEntity, PhotoSize, Update, UserFromGetMe } from 'grammy/types';
import { type EditedMessage, type SetReaction, telegramEditMethods } from './telegram-edits.js';

export type { EditedMessage, SetReaction } from './telegram-edits.js';

export interface FakeTelegramOptions {
  /** The one token the fake accepts; its numeric prefix becomes the bot's id, as on Telegram. */
  token: string;
  /** How long getUpdates may hold a request, whatever `timeout` asks. Default 1000 ms. */
  longPollCapMs?: number;
  /** Milliseconds since the epoch, for `at` and message dates. Default `Date.now`. */
  now?: () => number;
}

/** A scripted failure for the next call of one method. */
export type FakeFailure =
  | { status: number; body?: Record<string, unknown>; description?: string; retryAfter?: number }
  /** destroys the connection without an answer (the client sees a network error) */
  | { network: true };

/** One Bot API call as the fake received it. */
export interface RecordedCall {
  method: string;
  /** parameters from the JSON, form or multipart body and the query string */
  body: Record<string, unknown>;
  at: number;
  /** the HTTP status answered; undefined while a long poll is held */
  status?: number;
}

/** One successful sendMessage, in the order received. */
export interface SentMessage {
  chat_id: number | string;
  text: string;
  parse_mode?: string;
  reply_to_message_id?: number;
  message_thread_id?: number;
  message_id: number;
  body: Record<string, unknown>;
  /** the inline keyboard the message carries now (sendMessage's, replaced by editMessageText) */
  reply_markup?: unknown;
  /** the texts editMessageText gave it, oldest first */
  edits?: string[];
}

/** A press of an inline keyboard button under one of the bot's messages. */
export interface PushCallbackInput {
  chatId: number;
  userId: number;
  /** the bot message the keyboard is under */
  messageId: number;
  data: string;
  firstName?: string;
}

/** One successful sendPhoto, sendDocument or sendVoice with an uploaded file (multipart), in the order received. */
export interface SentUpload {
  method: UploadMethod;
  chat_id: number | string;
  fileName: string;
  size: number;
  /** hex sha256 of the uploaded bytes */
  sha256: string;
  caption?: string;
  message_thread_id?: number;
  message_id: number;
}

type UploadMethod = 'sendPhoto' | 'sendDocument' | 'sendVoice';
/** the multipart field each upload method carries its file in */
const UPLOAD_FIELDS: Readonly<Record<UploadMethod, string>> = {
  sendPhoto: 'photo',
  sendDocument: 'document',
  sendVoice: 'voice',
};

/** File content for a photo or document in a pushed message. */
export interface FakeFileInput {
  data?: string | Uint8Array;
  fileName?: string;
  mimeType?: string;
}

export interface PushMessageInput {
  chatId: number;
  chatType?: 'private' | 'group' | 'supergroup';
  userId: number;
  /** the message text, or the caption when a photo or document is attached */
  text?: string;
  username?: string;
  firstName?: string;
  /** explicit entities; by default @mentions and /commands in the text get entities, as Telegram does */
  entities?: MessageEntity[];
  /** makes the message a reply to a message sent by the bot */
  replyToBot?: boolean;
  /** makes the message a topic message of a forum supergroup */
  threadId?: number;
  photo?: FakeFileInput;
  document?: FakeFileInput;
  /** a voice note (OGG/Opus as Telegram records them; `duration` 1 s) */
  voice?: FakeFileInput;
  /** an album member: Telegram sends each photo of an album as its own update with this id */
  mediaGroupId?: string;
}

export interface StoredFile {
  file_id: string;
  file_unique_id: string;
  file_size: number;
  file_path: string;
  data: Buffer;
  mimeType: string;
}

export interface FakeTelegram {
  /** For `new Bot(token, { client: { apiRoot } })`: `http://127.0.0.1:PORT`, no trailing slash. */
  readonly apiRoot: string;
  readonly token: string;
  /** What getMe answers. */
  readonly bot: UserFromGetMe;
  /** Every successful sendMessage, oldest first. */
  readonly sent: readonly SentMessage[];
  /** Every successful sendPhoto / sendDocument / sendVoice upload, oldest first. */
  readonly uploads: readonly SentUpload[];
  /** Every successful editMessageText, oldest first. */
  readonly edits: readonly EditedMessage[];
  /** Every successful setMessageReaction, oldest first. */
  readonly reactions: readonly SetReaction[];
  /** What a message the bot sent shows now (after its edits), by chat id and message id. */
  textOf(chatId: number | string, messageId: number): string | undefined;
  /** Every Bot API call (refused ones included), oldest first. */
  readonly calls: readonly RecordedCall[];
  /** The webhook set with setWebhook, if any. */
  webhook(): { url: string; secret_token?: string } | undefined;
  /** Updates queued and not yet confirmed by an offset. */
  queued(): readonly Update[];
  /** getUpdates requests currently held open. */
  pendingPolls(): number;
  /** Queues an update for getUpdates (its update_id is kept; later ones are numbered above it, as Telegram's grow). */
  pushUpdate(update: Update): Update;
  /** The next update_id, for a hand-built update (Telegram's ids only grow). */
  nextUpdateId(): number;
  /** Builds a realistic message update, queues it for getUpdates and returns it. */
  pushMessage(input: PushMessageInput): Update;
  /** Queues several messages at once (as Telegram queues an album's updates), answering held polls once. */
  pushMessages(inputs: readonly PushMessageInput[]): Update[];
  /** Queues a callback_query update (a button press), as Telegram sends it. */
  pushCallbackQuery(input: PushCallbackInput): Update;
  /** Builds the same callback_query update without queueing it (for a webhook). */
  callbackQueryUpdate(input: PushCallbackInput): Update;
  /** answerCallbackQuery calls, by callback query id: the text shown to the presser. */
  readonly callbackAnswers: ReadonlyMap<string, string>;
  /** Builds the same update as pushMessage without queueing it: the body Telegram POSTs to a webhook. */
  webhookUpdate(input: PushMessageInput): Update;
  /**
   * POSTs `update` as Telegram does to the webhook set with setWebhook: JSON, with the registered
   * `secret_token` in `X-Telegram-Bot-Api-Secret-Token`. `origin` (e.g. the gateway's 127.0.0.1
   * URL) replaces the registered URL's scheme and host, its path kept. Resolves with the status.
   */
  deliverWebhook(update: Update, origin: string): Promise<number>;
  /** Stores a file reachable through getFile and `GET /file/bot<token>/<file_path>`. */
  addFile(input: FakeFileInput & { kind?: 'photos' | 'documents' | 'voice' }): StoredFile;
  /** Queues a failure for the next call of `method` (several queue in order). */
  failNext(method: string, failure: FakeFailure): void;
  /**
   * Holds the answer to the next call of `method` (a slow Bot API) until `release()` is called;
   * the call is recorded when it arrives. Several holds queue in order.
   */
  holdNext(method: string): { release(): void };
  /** Resolves with the `count`-th call of `method` (1-based) once it has arrived. */
  waitForCall(method: string, count?: number, timeoutMs?: number): Promise<RecordedCall>;
  /** Destroys every open client connection (held long polls included). */
  dropConnections(): void;
  /** Clears queues, records, failures, files, the webhook and the counters. */
  reset(): void;
  /** Stops listening and drops every connection; idempotent. */
  close(): Promise<void>;
}

const MAX_MESSAGE_LENGTH = 4096;
const DEFAULT_POLL_CAP_MS = 1000;
const SUPPORTED_TAGS = new Set([
  'b',
  'strong',
  'i',
  'em',
  'u',
  'ins',
  's',
  'strike',
  'del',
  'span',
  'tg-spoiler',
  'a',
  'code',
  'pre',
  'blockquote',
  'tg-emoji',
]);
const NUMERIC_KEYS = new Set([
  'chat_id',
  'offset',
  'limit',
  'timeout',
  'message_thread_id',
  'reply_to_message_id',
  'message_id',
  'max_connections',
]);
const FREE_TEXT_KEYS = new Set([
  'text',
  'caption',
  'url',
  'secret_token',
  'file_id',
  'parse_mode',
  'action',
  'callback_query_id',
  'data',
]);

type Json = Record<string, unknown>;
type InboundChat = Update.NonChannel['chat'];
interface Answer {
  status: number;
  body: object;
}

function success(result: unknown): Answer {
  return { status: 200, body: { ok: true, result } };
}

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function sendJson(res: ServerResponse, status: number, body: object): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function apiError(status: number, description: string, retryAfter?: number): Json {
  const body: Json = { ok: false, error_code: status, description };
  if (retryAfter !== undefined) body.parameters = { retry_after: retryAfter };
  return body;
}

const DEFAULT_DESCRIPTIONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden: bot was blocked by the user',
  404: 'Not Found',
  409: 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
};

function failureBody(failure: { status: number; description?: string; retryAfter?: number }): Json {
  const fallback =
    failure.status === 429
      ? `Too Many Requests: retry after ${failure.retryAfter ?? 1}`
      : (DEFAULT_DESCRIPTIONS[failure.status] ?? 'Error');
  const retryAfter = failure.status === 429 ? (failure.retryAfter ?? 1) : failure.retryAfter;
  return apiError(failure.status, failure.description ?? fallback, retryAfter);
}

/** Form values arrive as strings: numbers for id-like keys, JSON for objects and arrays, booleans. */
function coerceFormValue(key: string, value: string): unknown {
  if (NUMERIC_KEYS.has(key) && /^-?\d+$/.test(value)) return Number(value);
  if (FREE_TEXT_KEYS.has(key)) return value;
  if (value === 'true' || value === 'false') return value === 'true';
  if (/^\s*[[{]/.test(value)) {
    try {
      return JSON.parse(value);
    } catch {
      return value; // Telegram would refuse it; the method handler sees the raw string
    }
  }
  return value;
}

function parseMultipart(raw: Buffer, boundary: string): Json {
  const body: Json = {};
  const text = raw.toString('latin1'); // byte-preserving, so part sizes stay exact
  for (const part of text.split(`--${boundary}`)) {
    const headerEnd = part.indexOf('\r\n\r\n');
    if (headerEnd === -1) continue;
    const headers = part.slice(0, headerEnd);
    const content = part.slice(headerEnd + 4).replace(/\r\n$/, '');
    const name = /(?:^|[;:\s])name="([^"]*)"/i.exec(headers)?.[1];
    if (name === undefined) continue;
    const quoted = /filename=(?:"([^"]*)"|([^;\r\n]+))/i.exec(headers);
    const fileName = quoted === null ? undefined : (quoted[1] ?? quoted[2]);
    const value = Buffer.from(content, 'latin1');
    body[name] =
      fileName === undefined
        ? coerceFormValue(name, value.toString('utf8'))
        : {
            fileName,
            size: value.length,
            sha256: createHash('sha256').update(value).digest('hex'),
            head: value.subarray(0, 12),
          };
  }
  // `field=attach://<part>` points at the part holding the upload, as the Bot API documents
  for (const [key, value] of Object.entries(body)) {
    const part = typeof value === 'string' ? /^attach:\/\/(.+)$/.exec(value)?.[1] : undefined;
    if (part === undefined || !(part in body)) continue;
    body[key] = body[part];
    delete body[part];
  }
  return body;
}

/** Parses JSON, form-urlencoded or multipart parameters, plus the query string; undefined when malformed. */
function parseParameters(req: IncomingMessage, raw: Buffer, query: URLSearchParams): Json | undefined {
  const body: Json = {};
  for (const [key, value] of query) body[key] = coerceFormValue(key, value);
  const type = req.headers['content-type'] ?? '';
  if (raw.length === 0) return body;
  if (type.includes('application/json')) {
    try {
      const parsed: unknown = JSON.parse(raw.toString('utf8'));
      return isRecord(parsed) ? { ...body, ...parsed } : undefined;
    } catch {
      return undefined;
    }
  }
  if (type.includes('application/x-www-form-urlencoded')) {
    for (const [key, value] of new URLSearchParams(raw.toString('utf8'))) body[key] = coerceFormValue(key, value);
    return body;
  }
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(type);
  if (type.includes('multipart/form-data') && boundary !== null) {
    return { ...body, ...parseMultipart(raw, boundary[1] ?? boundary[2] ?? '') };
  }
  return body;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const ENTITY = /^&(?:(lt|gt|amp|quot);|#(\d{1,7});|#[xX]([0-9a-fA-F]{1,6});)/;
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };
const START_TAG =
  /^<([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[a-zA-Z][a-zA-Z0-9-]*(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]+))?)*)\s*>/;
const END_TAG = /^<\/([a-zA-Z][a-zA-Z0-9-]*)\s*>/;

/** Parses text as Telegram's HTML parse mode does: the visible text, or the error Telegram would give. */
export function parseTelegramHtml(html: string): { ok: true; text: string } | { ok: false; description: string } {
  const fail = (why: string) => ({ ok: false as const, description: `Bad Request: can't parse entities: ${why}` });
  const stack: string[] = [];
  let out = '';
  let i = 0;
  while (i < html.length) {
    const char = html[i];
    const rest = html.slice(i);
    const offset = Buffer.byteLength(html.slice(0, i));
    if (char === '&') {
      const match = ENTITY.exec(rest);
      if (match === null) {
        out += '&'; // Telegram keeps an unknown entity as text
        i += 1;
        continue;
      }
      const code = match[2] ?? (match[3] === undefined ? undefined : String(Number.parseInt(match[3], 16)));
      out += match[1] !== undefined ? (NAMED[match[1]] ?? '') : String.fromCodePoint(Number(code));
      i += match[0].length;
      continue;
    }
    if (char !== '<') {
      out += char;
      i += 1;
      continue;
    }
    const end = END_TAG.exec(rest);
    if (end?.[1] !== undefined) {
      const open = stack.pop();
      if (open === undefined) return fail(`Unexpected end tag at byte offset ${offset}`);
      if (open !== end[1].toLowerCase()) {
        return fail(`Unmatched end tag at byte offset ${offset}, expected "</${open}>", found "</${end[1]}>"`);
      }
      i += end[0].length;
      continue;
    }
    const start = START_TAG.exec(rest);
    const name = start?.[1]?.toLowerCase() ?? /^<\/?([a-zA-Z0-9-]*)/.exec(rest)?.[1] ?? '';
    if (start === null || !SUPPORTED_TAGS.has(name)) {
      return fail(`Unsupported start tag "${name}" at byte offset ${offset}`);
    }
    if (name === 'span' && !/class\s*=\s*["']?tg-spoiler/.test(start[2] ?? '')) {
      return fail(`Unsupported start tag "span" at byte offset ${offset}`);
    }
    stack.push(name);
    i += start[0].length;
  }
  const unclosed = stack.pop();
  if (unclosed !== undefined) return fail(`Can't find end tag corresponding to start tag "${unclosed}"`);
  return { ok: true, text: out };
}

/** Entities Telegram would attach to plain text: @mentions and /commands. */
function autoEntities(text: string): MessageEntity[] {
  const entities: MessageEntity[] = [];
  for (const match of text.matchAll(/(^|\s)(@[A-Za-z0-9_]{3,32}|\/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]{3,32})?)/g)) {
    const token = match[2] ?? '';
    const offset = (match.index ?? 0) + (match[1]?.length ?? 0);
    entities.push({ type: token.startsWith('@') ? 'mention' : 'bot_command', offset, length: token.length });
  }
  return entities;
}

function botIdFrom(token: string): number {
  const prefix = /^(\d+):/.exec(token)?.[1];
  return prefix === undefined ? 7_000_001 : Number(prefix);
}

/** Starts the fake on 127.0.0.1 on a free port. */
export async function startFakeTelegram(options: FakeTelegramOptions): Promise<FakeTelegram> {
  const { token } = options;
  const now = options.now ?? Date.now;
  const pollCapMs = options.longPollCapMs ?? DEFAULT_POLL_CAP_MS;
  const bot: UserFromGetMe = {
    id: botIdFrom(token),
    is_bot: true,
    first_name: 'Hermes',
    username: 'hermes_test_bot',
    can_join_groups: true,
    can_read_all_group_messages: false,
    supports_inline_queries: false,
    can_connect_to_business: false,
    has_main_web_app: false,
    has_topics_enabled: false,
    allows_users_to_create_topics: false,
    can_manage_bots: false,
    supports_join_request_queries: false,
  };
  const sent: SentMessage[] = [];
  const uploads: SentUpload[] = [];
  const edits: EditedMessage[] = [];
  const reactions: SetReaction[] = [];
  /** the text each bot message shows now, by `${chat_id}:${message_id}` */
  const shown = new Map<string, string>();
  const calls: RecordedCall[] = [];
  const queue: Update[] = [];
  const failures = new Map<string, FakeFailure[]>();
  const holds = new Map<string, Promise<void>[]>();
  const files = new Map<string, StoredFile>();
  const chats = new Map<number, InboundChat>();
  const sockets = new Set<Socket>();
  const callWaiters = new Set<() => void>();
  let polls: { res: ServerResponse; answer: () => void; finish: (status: number, body: object) => void }[] = [];
  let webhook: { url: string; secret_token?: string } | undefined;
  let updateId = 100_000;
  let messageId = 0;
  let fileCounter = 0;
  let lastBotMessage: Message | undefined;
  /** callback queries sent and not yet answered */
  const openQueries = new Set<string>();
  const callbackAnswers = new Map<string, string>();
  let queryCounter = 0;

  const seconds = (): number => Math.floor(now() / 1000);

  function addFile(input: FakeFileInput & { kind?: 'photos' | 'documents' | 'voice' }): StoredFile {
    fileCounter += 1;
    const kind = input.kind ?? 'documents';
    const data = Buffer.from(input.data ?? `fake file ${fileCounter}`);
    const extension =
      /\.([A-Za-z0-9]{1,8})$/.exec(input.fileName ?? '')?.[1] ??
      (kind === 'photos' ? 'jpg' : kind === 'voice' ? 'oga' : 'bin');
    const file: StoredFile = {
      file_id: `BQACAgQAAxkBAAI${fileCounter}fake`,
      file_unique_id: `AgAD${fileCounter}fk`,
      file_size: data.length,
      file_path: `${kind}/file_${fileCounter}.${extension}`,
      data,
      mimeType:
        input.mimeType ??
        (kind === 'photos' ? 'image/jpeg' : kind === 'voice' ? 'audio/ogg' : 'application/octet-stream'),
    };
    files.set(file.file_id, file);
    return file;
  }

  function photoSizes(input: FakeFileInput): PhotoSize[] {
    return [90, 320, 1280].map((side, index) => {
      const file = addFile({ ...input, kind: 'photos', data: index === 2 ? input.data : `thumb ${side}` });
      return {
        file_id: file.file_id,
        file_unique_id: file.file_unique_id,
        file_size: file.file_size,
        width: side,
        height: side,
      };
    });
  }

  function chatFor(input: PushMessageInput): InboundChat {
    const type = input.chatType ?? (input.chatId > 0 ? 'private' : 'supergroup');
    const forum = input.threadId === undefined ? {} : { is_forum: true as const };
    const chat: InboundChat =
      type === 'private'
        ? { id: input.chatId, type, first_name: input.firstName ?? 'Ada', username: input.username }
        : type === 'group'
          ? { id: input.chatId, type, title: 'Test group' }
          : { id: input.chatId, type, title: 'Test supergroup', ...forum };
    chats.set(chat.id, chat);
    return chat;
  }

  function botMessage(chat: Chat, text: string, threadId?: number, existingId?: number): Message {
    if (existingId === undefined) messageId += 1;
    return {
      message_id: existingId ?? messageId,
      from: { id: bot.id, is_bot: true, first_name: bot.first_name, username: bot.username },
      chat,
      date: seconds(),
      text,
      ...(threadId === undefined ? {} : { message_thread_id: threadId, is_topic_message: true }),
    };
  }

  function media(input: PushMessageInput): Pick<Message, 'photo' | 'document' | 'voice' | 'media_group_id'> {
    const out: Pick<Message, 'photo' | 'document' | 'voice' | 'media_group_id'> = {};
    if (input.mediaGroupId !== undefined) out.media_group_id = input.mediaGroupId;
    if (input.voice !== undefined) {
      const file = addFile({ ...input.voice, kind: 'voice' });
      out.voice = {
        file_id: file.file_id,
        file_unique_id: file.file_unique_id,
        file_size: file.file_size,
        duration: 1,
        mime_type: file.mimeType,
      };
    }
    if (input.photo !== undefined) out.photo = photoSizes(input.photo);
    if (input.document !== undefined) {
      const file = addFile({ ...input.document, kind: 'documents' });
      out.document = {
        file_id: file.file_id,
        file_unique_id: file.file_unique_id,
        file_size: file.file_size,
        file_name: input.document.fileName ?? 'document.bin',
        mime_type: file.mimeType,
      };
    }
    return out;
  }

  function buildUpdate(input: PushMessageInput): Update {
    const chat = chatFor(input);
    const text = input.text ?? '';
    const hasMedia = input.photo !== undefined || input.document !== undefined || input.voice !== undefined;
    const entities = input.entities ?? autoEntities(text);
    const withEntities = entities.length > 0;
    const earlier = lastBotMessage?.chat.id === chat.id ? lastBotMessage : undefined;
    const replyTo = input.replyToBot === true ? (earlier ?? botMessage(chat, 'an earlier reply')) : undefined;
    messageId += 1;
    const message: Message & Update.NonChannel = {
      message_id: messageId,
      from: {
        id: input.userId,
        is_bot: false,
        first_name: input.firstName ?? 'Ada',
        ...(input.username === undefined ? {} : { username: input.username }),
        language_code: 'en',
      },
      chat,
      date: seconds(),
      ...(input.threadId === undefined ? {} : { message_thread_id: input.threadId, is_topic_message: true }),
      ...(hasMedia
        ? { ...(text === '' ? {} : { caption: text }), ...(withEntities ? { caption_entities: entities } : {}) }
        : { text, ...(withEntities ? { entities } : {}) }),
      ...media(input),
      ...(replyTo === undefined ? {} : { reply_to_message: { ...replyTo, reply_to_message: undefined } }),
    };
    updateId += 1;
    return { update_id: updateId, message };
  }

  function recordCall(method: string, body: Json): RecordedCall {
    const call: RecordedCall = { method, body, at: now() };
    calls.push(call);
    for (const wake of [...callWaiters]) wake();
    return call;
  }

  function answer(res: ServerResponse, call: RecordedCall, status: number, body: object): void {
    call.status = status;
    if (!res.writableEnded && !res.destroyed) sendJson(res, status, body);
  }

  function ok(res: ServerResponse, call: RecordedCall, result: unknown): void {
    answer(res, call, 200, { ok: true, result });
  }

  function flushPolls(): void {
    for (const poll of [...polls]) poll.answer();
  }

  function getUpdates(res: ServerResponse, call: RecordedCall, body: Json): void {
    if (webhook !== undefined) {
      const why =
        "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first";
      answer(res, call, 409, apiError(409, why));
      return;
    }
    // Telegram answers an older, still-held getUpdates with 409 when a newer one arrives.
    for (const old of polls) old.finish(409, apiError(409, DEFAULT_DESCRIPTIONS[409] ?? 'Conflict'));
    const offset = typeof body.offset === 'number' ? body.offset : 0;
    const limit = typeof body.limit === 'number' ? Math.min(Math.max(body.limit, 1), 100) : 100;
    const timeoutMs = typeof body.timeout === 'number' ? Math.min(body.timeout * 1000, pollCapMs) : 0;
    const allowed =
      Array.isArray(body.allowed_updates) && body.allowed_updates.length > 0 ? body.allowed_updates : null;
    if (offset > 0) {
      const keep = queue.filter((update) => update.update_id >= offset);
      queue.splice(0, queue.length, ...keep);
    } else if (offset < 0) {
      queue.splice(0, Math.max(0, queue.length + offset));
    }
    const ready = (): Update[] =>
      queue
        .filter((update) => allowed === null || Object.keys(update).some((key) => allowed.includes(key)))
        .slice(0, limit);
    if (ready().length > 0 || timeoutMs <= 0) {
      ok(res, call, ready());
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    const poll = {
      res,
      finish: (status: number, reply: object): void => {
        clearTimeout(timer);
        polls = polls.filter((other) => other !== poll);
        answer(res, call, status, reply);
      },
      answer: (): void => {
        const updates = ready();
        if (updates.length > 0) poll.finish(200, { ok: true, result: updates });
      },
    };
    timer = setTimeout(() => poll.finish(200, { ok: true, result: [] }), timeoutMs);
    res.once('close', () => {
      clearTimeout(timer);
      polls = polls.filter((other) => other !== poll);
    });
    polls.push(poll);
  }

  function sendMessage(body: Json): Answer {
    const chatId = body.chat_id;
    if (typeof chatId !== 'number' && (typeof chatId !== 'string' || chatId === '')) {
      return { status: 400, body: apiError(400, 'Bad Request: chat_id is empty') };
    }
    const text = typeof body.text === 'string' ? body.text : '';
    const parseMode = typeof body.parse_mode === 'string' && body.parse_mode !== '' ? body.parse_mode : undefined;
    if (parseMode !== undefined && !['HTML', 'Markdown', 'MarkdownV2'].includes(parseMode)) {
      return { status: 400, body: apiError(400, 'Bad Request: unsupported parse_mode') };
    }
    const parsed = parseMode === 'HTML' ? parseTelegramHtml(text) : { ok: true as const, text };
    if (!parsed.ok) {
      return { status: 400, body: apiError(400, parsed.description) };
    }
    if (parsed.text.trim() === '') {
      return { status: 400, body: apiError(400, 'Bad Request: message text is empty') };
    }
    if (parsed.text.length > MAX_MESSAGE_LENGTH) {
      return { status: 400, body: apiError(400, 'Bad Request: message is too long') };
    }
    const replyParameters = isRecord(body.reply_parameters) ? body.reply_parameters : {};
    const replyTo = body.reply_to_message_id ?? replyParameters.message_id;
    const threadId = body.message_thread_id;
    const numericChat = typeof chatId === 'number' ? chatId : /^-?\d+$/.test(chatId) ? Number(chatId) : chatId;
    const known = typeof numericChat === 'number' ? chats.get(numericChat) : undefined;
    const chat: Chat =
      known ??
      (typeof numericChat === 'number' && numericChat > 0
        ? { id: numericChat, type: 'private', first_name: 'Ada' }
        : { id: typeof numericChat === 'number' ? numericChat : -1, type: 'supergroup', title: String(numericChat) });
    const message = botMessage(chat, parsed.text, typeof threadId === 'number' ? threadId : undefined);
    lastBotMessage = message;
    shown.set(`${numericChat}:${message.message_id}`, parsed.text);
    sent.push({
      chat_id: numericChat,
      text,
      ...(parseMode === undefined ? {} : { parse_mode: parseMode }),
      ...(typeof replyTo === 'number' ? { reply_to_message_id: replyTo } : {}),
      ...(typeof threadId === 'number' ? { message_thread_id: threadId } : {}),
      message_id: message.message_id,
      body,
      ...(body.reply_markup === undefined ? {} : { reply_markup: body.reply_markup }),
    });
    return success(message);
  }

  /** sendPhoto / sendDocument / sendVoice with a multipart upload (a file_id or URL string is not supported by the fake) */
  function sendUpload(method: UploadMethod, body: Json): Answer {
    const field = UPLOAD_FIELDS[method];
    const chatId = body.chat_id;
    if (typeof chatId !== 'number' && (typeof chatId !== 'string' || chatId === '')) {
      return { status: 400, body: apiError(400, 'Bad Request: chat_id is empty') };
    }
    const upload = body[field];
    if (!isRecord(upload) || typeof upload.size !== 'number' || typeof upload.sha256 !== 'string') {
      return { status: 400, body: apiError(400, `Bad Request: there is no ${field} in the request`) };
    }
    if (upload.size === 0) return { status: 400, body: apiError(400, 'Bad Request: file must be non-empty') };
    const head = Buffer.isBuffer(upload.head) ? upload.head.toString('hex') : '';
    const isImage = /^(89504e47|ffd8ff|47494638|52494646)/.test(head);
    if (method === 'sendPhoto' && !isImage) {
      return { status: 400, body: apiError(400, 'Bad Request: IMAGE_PROCESS_FAILED') };
    }
    // Telegram plays voice notes of OGG/Opus (and MP3, M4A); the fake takes an Ogg file only
    if (method === 'sendVoice' && !head.startsWith('4f676753')) {
      return { status: 400, body: apiError(400, 'Bad Request: VOICE_MESSAGES_FORBIDDEN') };
    }
    const numericChat = typeof chatId === 'number' ? chatId : /^-?\d+$/.test(chatId) ? Number(chatId) : -1;
    const chat: Chat = chats.get(numericChat) ?? { id: numericChat, type: 'private', first_name: 'Ada' };
    const threadId = typeof body.message_thread_id === 'number' ? body.message_thread_id : undefined;
    const caption = typeof body.caption === 'string' ? body.caption : undefined;
    const { text: _text, ...base } = botMessage(chat, '', threadId);
    const fileName = typeof upload.fileName === 'string' ? upload.fileName : 'file';
    const stored = {
      file_id: `upload_${base.message_id}`,
      file_unique_id: `u${base.message_id}`,
      file_size: upload.size,
    };
    const message: Message =
      method === 'sendPhoto'
        ? { ...base, photo: [{ ...stored, width: 512, height: 512 }], ...(caption ? { caption } : {}) }
        : method === 'sendVoice'
          ? { ...base, voice: { ...stored, duration: 1, mime_type: 'audio/ogg' }, ...(caption ? { caption } : {}) }
          : { ...base, document: { ...stored, file_name: fileName }, ...(caption ? { caption } : {}) };
    uploads.push({
      method,
      chat_id: numericChat,
      fileName,
      size: upload.size,
      sha256: upload.sha256,
      ...(caption === undefined ? {} : { caption }),
      ...(threadId === undefined ? {} : { message_thread_id: threadId }),
      message_id: base.message_id,
    });
    return success(message);
  }

  function buildCallbackQuery(input: PushCallbackInput): Update {
    const target = sent.find((m) => Number(m.chat_id) === input.chatId && m.message_id === input.messageId);
    if (target === undefined) throw new Error(`fake telegram: no bot message ${input.messageId} in ${input.chatId}`);
    const chat: Chat = chats.get(input.chatId) ?? { id: input.chatId, type: 'private', first_name: 'Ada' };
    queryCounter += 1;
    const id = `${input.userId}${queryCounter}`;
    openQueries.add(id);
    updateId += 1;
    return {
      update_id: updateId,
      callback_query: {
        id,
        from: { id: input.userId, is_bot: false, first_name: input.firstName ?? 'Ada', language_code: 'en' },
        message: botMessage(chat, target.text, undefined, target.message_id),
        chat_instance: String(input.chatId),
        data: input.data,
      },
    };
  }

  function answerCallbackQuery(body: Json): Answer {
    const id = typeof body.callback_query_id === 'string' ? body.callback_query_id : '';
    if (!openQueries.delete(id)) {
      const why = 'Bad Request: query is too old and response timeout expired or query ID is invalid';
      return { status: 400, body: apiError(400, why) };
    }
    callbackAnswers.set(id, typeof body.text === 'string' ? body.text : '');
    return success(true);
  }

  function editMessageText(body: Json): Answer {
    const target = sent.find((m) => String(m.chat_id) === String(body.chat_id) && m.message_id === body.message_id);
    if (target === undefined) return { status: 400, body: apiError(400, 'Bad Request: message to edit not found') };
    const text = typeof body.text === 'string' ? body.text : '';
    if (text.trim() === '') return { status: 400, body: apiError(400, 'Bad Request: message text is empty') };
    if (text.length > MAX_MESSAGE_LENGTH) return { status: 400, body: apiError(400, 'Bad Request: MESSAGE_TOO_LONG') };
    const sameMarkup = JSON.stringify(target.reply_markup) === JSON.stringify(body.reply_markup);
    if (text === target.text && sameMarkup) {
      const why =
        'Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message';
      return { status: 400, body: apiError(400, why) };
    }
    target.text = text;
    target.edits = [...(target.edits ?? []), text];
    if (body.reply_markup === undefined) delete target.reply_markup;
    else target.reply_markup = body.reply_markup;
    const chat: Chat = chats.get(Number(body.chat_id)) ?? {
      id: Number(body.chat_id),
      type: 'private',
      first_name: 'Ada',
    };
    return success(botMessage(chat, text, undefined, target.message_id));
  }

  function getFile(body: Json): Answer {
    const file = typeof body.file_id === 'string' ? files.get(body.file_id) : undefined;
    if (file === undefined) {
      return { status: 400, body: apiError(400, 'Bad Request: invalid file_id') };
    }
    const result: File = {
      file_id: file.file_id,
      file_unique_id: file.file_unique_id,
      file_size: file.file_size,
      file_path: file.file_path,
    };
    return success(result);
  }

  function setWebhook(body: Json): Answer {
    if (typeof body.url !== 'string') return { status: 400, body: apiError(400, 'Bad Request: bad webhook') };
    const secret = typeof body.secret_token === 'string' ? body.secret_token : undefined;
    if (secret !== undefined && !/^[A-Za-z0-9_-]{1,256}$/.test(secret)) {
      return { status: 400, body: apiError(400, 'Bad Request: secret token contains unallowed characters') };
    }
    webhook =
      body.url === '' ? undefined : { url: body.url, ...(secret === undefined ? {} : { secret_token: secret }) };
    for (const poll of [...polls]) poll.finish(409, apiError(409, 'Conflict: terminated by setWebhook request'));
    return success(true);
  }

  function deleteWebhook(body: Json): Answer {
    webhook = undefined;
    if (body.drop_pending_updates === true) queue.length = 0;
    return success(true);
  }

  const streamEdits = telegramEditMethods(
    {
      current: (chat, id) => shown.get(`${String(chat)}:${id}`),
      update: (chat, id, text) => shown.set(`${String(chat)}:${id}`, text),
      lastMessageId: () => messageId,
      parseHtml: parseTelegramHtml,
      error: (status, description) => ({ status, body: apiError(status, description) }),
      success,
      maxLength: MAX_MESSAGE_LENGTH,
    },
    edits,
    reactions,
  );

  /** The methods answered at once; getUpdates, which may hold the request, is handled apart. */
  const methods: Record<string, (body: Json) => Answer> = {
    getMe: () => success(bot),
    sendMessage,
    sendPhoto: (body) => sendUpload('sendPhoto', body),
    sendDocument: (body) => sendUpload('sendDocument', body),
    sendVoice: (body) => sendUpload('sendVoice', body),
    getFile,
    answerCallbackQuery,
    sendChatAction: (body) =>
      typeof body.action === 'string'
        ? success(true)
        : { status: 400, body: apiError(400, 'Bad Request: action is empty') },
    setWebhook,
    deleteWebhook,
    // checked and recorded as an edit (telegram-edits.ts); then the bot's message shows it, keyboard too
    editMessageText: (body) => {
      const answer = streamEdits.editMessageText(body);
      return answer.status === 200 ? editMessageText(body) : answer;
    },
    setMessageReaction: (body) => streamEdits.setMessageReaction(body),
    getWebhookInfo: () =>
      success({ url: webhook?.url ?? '', has_custom_certificate: false, pending_update_count: queue.length }),
  };

  function callMethod(method: string, res: ServerResponse, call: RecordedCall, body: Json): void {
    if (method === 'getUpdates') {
      getUpdates(res, call, body);
      return;
    }
    const run = methods[method];
    const reply = run === undefined ? { status: 404, body: apiError(404, 'Not Found') } : run(body);
    answer(res, call, reply.status, reply.body);
  }

  function serveFile(path: string, res: ServerResponse): void {
    const prefix = `/file/bot${token}/`;
    if (!path.startsWith(prefix)) {
      sendJson(res, 401, apiError(401, 'Unauthorized'));
      return;
    }
    const filePath = decodeURIComponent(path.slice(prefix.length));
    const file = [...files.values()].find((candidate) => candidate.file_path === filePath);
    if (file === undefined) {
      sendJson(res, 404, apiError(404, 'Not Found'));
      return;
    }
    res.writeHead(200, { 'content-type': file.mimeType, 'content-length': file.data.length });
    res.end(file.data);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://fake');
    if (url.pathname.startsWith('/file/')) {
      serveFile(url.pathname, res);
      return;
    }
    const route = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname);
    if (route?.[1] === undefined || route[2] === undefined) {
      sendJson(res, 404, apiError(404, 'Not Found'));
      return;
    }
    const method = route[2];
    const body = parseParameters(req, raw, url.searchParams);
    const call = recordCall(method, body ?? {});
    if (route[1] !== token) {
      answer(res, call, 401, apiError(401, 'Unauthorized'));
      return;
    }
    if (body === undefined) {
      answer(res, call, 400, apiError(400, "Bad Request: can't parse JSON"));
      return;
    }
    const failure = failures.get(method)?.shift();
    if (failure !== undefined) {
      if ('network' in failure) {
        call.status = 0;
        res.socket?.destroy();
        return;
      }
      answer(res, call, failure.status, failure.body ?? failureBody(failure));
      return;
    }
    const hold = holds.get(method)?.shift();
    if (hold !== undefined) await hold;
    callMethod(method, res, call, body);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // A bug in the fake itself: make it loud in the test that hit it.
      const message = error instanceof Error ? error.message : String(error);
      if (!res.headersSent) sendJson(res, 500, apiError(500, `fake: internal error: ${message}`));
      else res.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // Telegram keeps an idle connection open far longer than node:http's 5 s default. With 5 s, a
  // send written as the server's idle timer fired (likely on a loaded machine) was reset unread and,
  // as a send without an answer is never repeated, its reply ended `failed` in a test's outbox.
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;

  const queueUpdate = (update: Update): Update => {
    updateId = Math.max(updateId, update.update_id);
    queue.push(update);
    flushPolls();
    return update;
  };

  return {
    apiRoot: `http://127.0.0.1:${port}`,
    token,
    bot,
    sent,
    uploads,
    edits,
    reactions,
    textOf: (chatId, id) => shown.get(`${chatId}:${id}`),
    calls,
    webhook: () => webhook,
    queued: () => [...queue],
    pendingPolls: () => polls.length,
    pushUpdate: queueUpdate,
    nextUpdateId: () => {
      updateId += 1;
      return updateId;
    },
    pushMessage: (input) => queueUpdate(buildUpdate(input)),
    pushMessages: (inputs) => {
      const updates = inputs.map(buildUpdate);
      queue.push(...updates);
      flushPolls();
      return updates;
    },
    pushCallbackQuery: (input) => queueUpdate(buildCallbackQuery(input)),
    callbackQueryUpdate: buildCallbackQuery,
    callbackAnswers,
    webhookUpdate: buildUpdate,
    async deliverWebhook(update, origin) {
      if (webhook === undefined) throw new Error('fake telegram: no webhook set');
      const target = new URL(new URL(webhook.url).pathname, origin);
      const secret = webhook.secret_token;
      const res = await fetch(target, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(secret === undefined ? {} : { 'x-telegram-bot-api-secret-token': secret }),
        },
        body: JSON.stringify(update),
      });
      await res.arrayBuffer();
      return res.status;
    },
    addFile,
    holdNext(method) {
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      holds.set(method, [...(holds.get(method) ?? []), held]);
      return { release };
    },
    failNext(method, failure) {
      const list = failures.get(method) ?? [];
      list.push(failure);
      failures.set(method, list);
    },
    waitForCall(method, count = 1, timeoutMs = 5000) {
      const find = (): RecordedCall | undefined => calls.filter((call) => call.method === method)[count - 1];
      const found = find();
      if (found !== undefined) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          callWaiters.delete(wake);
          reject(new Error(`fake telegram: no call #${count} of ${method} within ${timeoutMs} ms`));
        }, timeoutMs);
        const wake = (): void => {
          const call = find();
          if (call === undefined) return;
          clearTimeout(timer);
          callWaiters.delete(wake);
          resolve(call);
        };
        callWaiters.add(wake);
      });
    },
    dropConnections() {
      for (const socket of sockets) socket.destroy();
    },
    reset() {
      for (const poll of [...polls]) poll.finish(200, { ok: true, result: [] });
      sent.length = 0;
      uploads.length = 0;
      edits.length = 0;
      reactions.length = 0;
      shown.clear();
      calls.length = 0;
      queue.length = 0;
      failures.clear();
      holds.clear();
      files.clear();
      chats.clear();
      webhook = undefined;
      updateId = 100_000;
      messageId = 0;
      fileCounter = 0;
      lastBotMessage = undefined;
      openQueries.clear();
      callbackAnswers.clear();
      queryCounter = 0;
    },
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        for (const poll of [...polls]) poll.finish(200, { ok: true, result: [] });
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
