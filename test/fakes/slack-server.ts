// A protocol-faithful fake Slack on loopback: the Web API (form-urlencoded or JSON `POST /api/<method>`),
// Socket Mode (`apps.connections.open` -> a ws:// URL of its own WebSocket server, hello, events_api
// envelopes, acks, ping/pong, disconnect, a deaf-socket mode), private file downloads, and signed
// HTTP Events API requests. Driven by the real @slack/bolt, @slack/web-api and @slack/socket-mode.
import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import { type SlackUpdate, slackEditMethods } from './slack-edits.js';
import { createSlackUploads, type SharedFile, UPLOAD_PREFIX } from './slack-uploads.js';

export type { SlackUpdate } from './slack-edits.js';

export interface FakeSlackOptions {
  /** the bot token (xoxb-) Web API methods accept */
  botToken?: string;
  /** the app-level token (xapp-) apps.connections.open accepts */
  appToken?: string;
  /** signs HTTP Events API requests built by signedRequest() */
  signingSecret?: string;
  botUserId?: string;
  botId?: string;
  teamId?: string;
  appId?: string;
  /** how often the fake pings each open socket (Slack pings well inside the SDK's 30 s server-ping timeout); default 10 000 */
  pingIntervalMs?: number;
  /** how long the fake waits for the client's close frame before terminating the socket; default 1 000 */
  closeHandshakeMs?: number;
}

/** A scripted failure for the next call of one Web API method. */
export type FakeSlackFailure =
  /** HTTP 429 with `Retry-After` (seconds) and `{ok:false, error:'ratelimited'}` */
  | { rateLimited: number }
  /** HTTP 200 `{ok:false, error}` (invalid_auth, channel_not_found, not_in_channel, is_archived, ...) */
  | { error: string }
  /** an HTTP status other than 200 and 429 (Slack's 5xx) */
  | { status: number }
  /** the connection is destroyed without an answer */
  | { network: true };

/** One Web API call as the fake received it. */
export interface SlackCall {
  method: string;
  params: Record<string, unknown>;
  /** which token authenticated it */
  auth: 'bot' | 'app' | 'invalid' | 'none';
  /** the HTTP status answered */
  status: number;
  /** `error` of an `{ok:false}` answer */
  error?: string;
  at: number;
}

/** One successful chat.postMessage. */
export interface PostedMessage {
  channel: string;
  text: string;
  thread_ts?: string;
  /** the `mrkdwn` parameter, when given */
  mrkdwn?: boolean;
  /** the `metadata` parameter (JSON in a form body), when given */
  metadata?: { event_type: string; event_payload: Record<string, unknown> };
  ts: string;
  params: Record<string, unknown>;
  /** the message's blocks now (chat.postMessage's, replaced by chat.update) */
  blocks?: unknown[];
  /** the texts chat.update gave it, oldest first */
  edits?: string[];
}

/** One chat.postEphemeral: a message only `user` sees. */
export interface EphemeralMessage {
  channel: string;
  user: string;
  text: string;
  thread_ts?: string;
}

/** A press of a Block Kit button under one of the bot's messages. */
export interface BlockActionInput {
  channel: string;
  user: string;
  /** the ts of the message the button is under */
  messageTs: string;
  actionId: string;
}

/** A Socket Mode `interactive` envelope. */
export interface InteractiveEnvelope {
  envelope_id: string;
  type: 'interactive';
  payload: Record<string, unknown>;
  accepts_response_payload: boolean;
}

export interface SlackFile {
  id: string;
  name: string;
  title: string;
  mimetype: string;
  filetype: string;
  size: number;
  url_private: string;
  url_private_download: string;
}

export interface SlackUser {
  id: string;
  name: string;
  real_name?: string;
  is_bot?: boolean;
}

export type ChannelType = 'im' | 'channel' | 'group' | 'mpim';

export interface SlackChannel {
  id: string;
  name: string;
  type: ChannelType;
  isArchived?: boolean;
  /** false makes chat.postMessage answer not_in_channel */
  isMember?: boolean;
}

/** The `event` of an events_api payload: a Slack message or app_mention event. */
export interface SlackMessageEvent {
  type: 'message' | 'app_mention';
  channel: string;
  user?: string;
  text?: string;
  ts: string;
  event_ts: string;
  channel_type?: ChannelType;
  thread_ts?: string;
  parent_user_id?: string;
  subtype?: string;
  bot_id?: string;
  files?: SlackFile[];
  client_msg_id?: string;
  team?: string;
  blocks?: unknown[];
}

/** The Events API outer body (`event_callback`). */
export interface EventCallbackBody {
  token: string;
  team_id: string;
  api_app_id: string;
  event: Record<string, unknown>;
  type: 'event_callback';
  event_id: string;
  event_time: number;
  authorizations: { enterprise_id: null; team_id: string; user_id: string; is_bot: boolean }[];
  is_ext_shared_channel: boolean;
  event_context: string;
}

/** A Socket Mode `events_api` envelope. */
export interface EventsApiEnvelope {
  envelope_id: string;
  type: 'events_api';
  payload: EventCallbackBody;
  accepts_response_payload: boolean;
  retry_attempt: number;
  retry_reason: string;
}

export interface SocketAck {
  envelopeId: string;
  payload: unknown;
  at: number;
}

export interface MessageInput {
  channel: string;
  user: string;
  text?: string;
  /** default: 'im' for channel ids starting with D, else 'channel' */
  channelType?: ChannelType;
  ts?: string;
  /** makes it a reply in the thread whose parent has this ts */
  threadTs?: string;
  files?: SlackFile[];
  subtype?: string;
  botId?: string;
}

export interface SignedRequest {
  rawBody: string;
  headers: Record<string, string>;
}

export interface SignOptions {
  /** seconds since the epoch; default now */
  timestampS?: number;
  /** default the fake's signing secret */
  secret?: string;
  /** marks a redelivery: `x-slack-retry-num` and `x-slack-retry-reason` */
  retryNum?: number;
  retryReason?: string;
}

export interface FakeSlack {
  /** for `clientOptions.slackApiUrl`: `http://127.0.0.1:PORT/api/` */
  readonly apiUrl: string;
  /** `http://127.0.0.1:PORT` */
  readonly origin: string;
  readonly botToken: string;
  readonly appToken: string;
  readonly signingSecret: string;
  readonly bot: { userId: string; botId: string; teamId: string; appId: string; name: string };
  /** every Web API call, oldest first */
  readonly calls: readonly SlackCall[];
  /** every successful chat.postMessage, oldest first */
  readonly posted: readonly PostedMessage[];
  /** every file shared by files upload v2 (files.completeUploadExternal with a channel), oldest first */
  readonly sharedFiles: readonly SharedFile[];
  /** every chat.postEphemeral, oldest first */
  readonly ephemerals: readonly EphemeralMessage[];
  /** the block_actions payload Slack sends for a press (the button must be on the message) */
  blockActionsPayload(input: BlockActionInput): Record<string, unknown>;
  /** delivers a press over Socket Mode (an `interactive` envelope) */
  pushBlockAction(input: BlockActionInput): InteractiveEnvelope;
  /** POSTs a press as Slack does to the Interactivity URL: a signed form with one field, `payload` */
  postBlockAction(url: string, input: BlockActionInput): Promise<{ status: number; text: string }>;
  /** every successful chat.update, oldest first */
  readonly updates: readonly SlackUpdate[];
  /** the bot's reaction names on a message now (`channel`, `ts`), in the order added */
  reactionsOn(channel: string, ts: string): string[];
  /** every ack a client sent over a socket */
  readonly acks: readonly SocketAck[];
  /** every file download: which file, and whether the bot token came with it */
  readonly downloads: readonly { fileId: string; authorized: boolean }[];
  /** every socket that closed: its number (1-based) and close code (1000: the client's normal close, 1006: no close frame) */
  readonly closes: readonly { connection: number; code: number }[];
  /** sockets opened so far */
  connectionCount(): number;
  /** sockets open right now (deaf ones included, until their TCP connection closes) */
  openConnections(): number;
  /** the most sockets that were ever open at the same time */
  maxOpenConnections(): number;
  /** envelopes waiting for a live socket */
  queued(): readonly EventsApiEnvelope[];
  addUser(user: SlackUser): SlackUser;
  addChannel(channel: SlackChannel): SlackChannel;
  /** stores a file served at its url_private (bearer auth) */
  addFile(input: { name: string; mimetype?: string; data: string | Uint8Array }): SlackFile;
  /** a new unique message ts */
  nextTs(): string;
  /** builds a message event (registering its channel and user), without sending it */
  messageEvent(input: MessageInput): SlackMessageEvent;
  /** the app_mention event Slack sends for the same message */
  appMentionEvent(message: SlackMessageEvent): SlackMessageEvent;
  /** wraps an event in an event_callback body with a new event_id */
  eventCallback(event: object, eventId?: string): EventCallbackBody;
  /** sends an event over the live socket (queued until one is live) */
  pushEvent(event: object): EventsApiEnvelope;
  /** pushes a message event, plus its app_mention when it mentions the bot outside a DM (as Slack does) */
  pushMessage(input: MessageInput): { message: EventsApiEnvelope; mention?: EventsApiEnvelope };
  /** delivers the same payload again: new envelope_id, retry_attempt + 1, retry_reason 'timeout' */
  redeliver(envelope: EventsApiEnvelope): EventsApiEnvelope;
  /** sends a raw text frame to the live socket (malformed payloads) */
  pushRaw(frame: string): void;
  /** sends `{type:'disconnect', reason}` to every live socket */
  disconnect(reason?: string): void;
  /** every open socket goes deaf: no pong, no ping, no close handshake, nothing sent, nothing read */
  silence(): void;
  /** the next `count` sockets are accepted but never sent their hello (a connect that hangs) */
  withholdHello(count?: number): void;
  /** closes every open socket from the server side (close handshake first) */
  closeSockets(code?: number): Promise<void>;
  /** the next `times` (default 1) calls of `method` fail as scripted (failures queue in order) */
  failNext(method: string, failure: FakeSlackFailure, times?: number): void;
  /** a signed Events API request for `body` */
  signedRequest(body: unknown, options?: SignOptions): SignedRequest;
  /** POSTs a signed Events API request to `url` */
  postEvent(url: string, body: unknown, options?: SignOptions): Promise<{ status: number; text: string }>;
  waitForAck(envelopeId: string, timeoutMs?: number): Promise<SocketAck>;
  waitForPosts(count: number, timeoutMs?: number): Promise<readonly PostedMessage[]>;
  waitForConnections(count: number, timeoutMs?: number): Promise<void>;
  /** resolves once a live socket got its hello */
  waitForLiveSocket(timeoutMs?: number): Promise<void>;
  /** calls `listener` for each successful chat.postMessage, synchronously as it is recorded; returns an unsubscribe */
  onPost(listener: (message: PostedMessage) => void): () => void;
  /** clears records, scripted failures and queued envelopes (sockets and counters stay) */
  reset(): void;
  /** closes every socket and the server; idempotent */
  close(): Promise<void>;
}

const MAX_TEXT_LENGTH = 40_000;
const DEFAULT_PING_INTERVAL_MS = 10_000;
const DEFAULT_CLOSE_HANDSHAKE_MS = 1_000;
const SOCKET_PATH = '/link/';
const FILES_PREFIX = '/files-pri/';

type Params = Record<string, unknown>;

interface Connection {
  id: number;
  ws: WebSocket;
  socket: Socket;
  live: boolean;
  silent: boolean;
  closed: Promise<void>;
  pinger: NodeJS.Timeout;
}

interface StoredFile {
  file: SlackFile;
  data: Buffer;
}

interface Answer {
  status: number;
  body: object;
  headers?: Record<string, string>;
}

function isRecord(value: unknown): value is Params {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function ok(body: Params = {}): Answer {
  return { status: 200, body: { ok: true, ...body } };
}

function platformError(error: string): Answer {
  return { status: 200, body: { ok: false, error } };
}

function sendJson(res: ServerResponse, answer: Answer): void {
  const text = JSON.stringify(answer.body);
  res.writeHead(answer.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...answer.headers,
  });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Form values stay strings, as Slack reads them; JSON bodies keep their types. Undefined when malformed. */
function parseParams(req: IncomingMessage, raw: Buffer, query: URLSearchParams): Params | undefined {
  const params: Params = Object.fromEntries(query);
  if (raw.length === 0) return params;
  const type = req.headers['content-type'] ?? '';
  if (type.includes('application/json')) {
    try {
      const parsed: unknown = JSON.parse(raw.toString('utf8'));
      return isRecord(parsed) ? { ...params, ...parsed } : undefined;
    } catch {
      return undefined;
    }
  }
  for (const [key, value] of new URLSearchParams(raw.toString('utf8'))) params[key] = value;
  return params;
}

/** chat.postMessage's `metadata`: an object, or its JSON in a form body; 'invalid' when it is neither. */
function parseMetadata(value: unknown): PostedMessage['metadata'] | undefined | 'invalid' {
  if (value === undefined) return undefined;
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      return 'invalid';
    }
  }
  if (typeof parsed !== 'object' || parsed === null) return 'invalid';
  const { event_type, event_payload } = parsed as { event_type?: unknown; event_payload?: unknown };
  if (typeof event_type !== 'string' || typeof event_payload !== 'object' || event_payload === null) return 'invalid';
  return { event_type, event_payload: event_payload as Record<string, unknown> };
}

/** `blocks` as sent: a JSON string (form body) or an array (JSON body); 'invalid' when neither. */
function parseBlocks(value: unknown): unknown[] | undefined | 'invalid' {
  if (value === undefined) return undefined;
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      return 'invalid';
    }
  }
  return Array.isArray(parsed) ? parsed : 'invalid';
}

function asBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return undefined;
}

function filetypeOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot === -1 ? 'binary' : name.slice(dot + 1).toLowerCase();
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

async function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`fake slack: ${what} did not happen within ${timeoutMs} ms`);
    await delay(5);
  }
}

/** Starts the fake on 127.0.0.1, port 0. */
export async function startFakeSlack(options: FakeSlackOptions = {}): Promise<FakeSlack> {
  const botToken = options.botToken ?? 'xoxb-1111111111-2222222222-FakeBotTokenValue';
  const appToken = options.appToken ?? 'xapp-1-A0FAKEAPP01-3333333333-FakeAppTokenValue';
  const signingSecret = options.signingSecret ?? 'fake-signing-secret-0123456789abcdef';
  const bot = {
    userId: options.botUserId ?? 'UBOT0001',
    botId: options.botId ?? 'BBOT0001',
    teamId: options.teamId ?? 'T0FAKE001',
    appId: options.appId ?? 'A0FAKEAPP01',
    name: 'hermes',
  };
  const pingIntervalMs = options.pingIntervalMs ?? DEFAULT_PING_INTERVAL_MS;
  const closeHandshakeMs = options.closeHandshakeMs ?? DEFAULT_CLOSE_HANDSHAKE_MS;

  const calls: SlackCall[] = [];
  const posted: PostedMessage[] = [];
  const uploads = createSlackUploads(() => origin);
  const updates: SlackUpdate[] = [];
  const reactions = new Map<string, string[]>();
  const edits = slackEditMethods(
    {
      posted,
      channelExists: (id) => channels.has(id),
      ok,
      platformError,
      maxTextLength: MAX_TEXT_LENGTH,
    },
    updates,
    reactions,
  );
  const acks: SocketAck[] = [];
  const downloads: { fileId: string; authorized: boolean }[] = [];
  const closes: { connection: number; code: number }[] = [];
  const failures = new Map<string, FakeSlackFailure[]>();
  const users = new Map<string, SlackUser>();
  const channels = new Map<string, SlackChannel>();
  const files = new Map<string, StoredFile>();
  const tickets = new Set<string>();
  const connections = new Map<number, Connection>();
  const queue: (EventsApiEnvelope | InteractiveEnvelope)[] = [];
  const ephemerals: EphemeralMessage[] = [];
  const postListeners = new Set<(message: PostedMessage) => void>();
  const httpSockets = new Set<Socket>();
  let totalConnections = 0;
  let maxOpen = 0;
  let helloWithheld = 0;
  let tsCounter = 0;
  let idCounter = 0;
  let closed = false;

  const nextTs = (): string => {
    tsCounter += 1;
    return `${Math.floor(Date.now() / 1000)}.${String(tsCounter).padStart(6, '0')}`;
  };
  const nextId = (prefix: string): string => {
    idCounter += 1;
    return `${prefix}${String(idCounter).padStart(8, '0')}`;
  };

  const server = createServer((req, res) => {
    handleHttp(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, { status: 500, body: { ok: false, error: String(error) } });
    });
  });
  server.on('connection', (socket: Socket) => {
    httpSockets.add(socket);
    socket.once('close', () => httpSockets.delete(socket));
  });
  const wss = new WebSocketServer({ noServer: true, autoPong: false });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  function authOf(req: IncomingMessage, params: Params): SlackCall['auth'] {
    const header = req.headers.authorization;
    const bearer = typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7) : undefined;
    const token = bearer ?? (typeof params.token === 'string' ? params.token : undefined);
    if (token === undefined || token === '') return 'none';
    if (token === botToken) return 'bot';
    if (token === appToken) return 'app';
    return 'invalid';
  }

  function takeFailure(method: string): FakeSlackFailure | undefined {
    const list = failures.get(method);
    const failure = list?.shift();
    if (list !== undefined && list.length === 0) failures.delete(method);
    return failure;
  }

  function channelAnswer(id: string): Params {
    const channel = channels.get(id);
    if (channel === undefined) return {};
    return {
      id: channel.id,
      name: channel.name,
      is_channel: channel.type === 'channel',
      is_group: channel.type === 'group',
      is_im: channel.type === 'im',
      is_mpim: channel.type === 'mpim',
      is_private: channel.type !== 'channel',
      is_archived: channel.isArchived === true,
      is_member: channel.isMember !== false,
    };
  }

  function postMessage(params: Params): Answer {
    const channelId = typeof params.channel === 'string' ? params.channel : '';
    const text = typeof params.text === 'string' ? params.text : '';
    if (channelId === '') return platformError('channel_not_found');
    const channel = channels.get(channelId);
    if (channel === undefined) return platformError('channel_not_found');
    if (channel.isArchived === true) return platformError('is_archived');
    if (channel.isMember === false) return platformError('not_in_channel');
    if (text === '' && params.blocks === undefined && params.attachments === undefined) return platformError('no_text');
    if (text.length > MAX_TEXT_LENGTH) return platformError('msg_too_long');
    const ts = nextTs();
    const threadTs = typeof params.thread_ts === 'string' && params.thread_ts !== '' ? params.thread_ts : undefined;
    const mrkdwn = asBoolean(params.mrkdwn);
    const metadata = parseMetadata(params.metadata);
    if (metadata === 'invalid') return platformError('invalid_metadata_format');
    const blocks = parseBlocks(params.blocks);
    if (blocks === 'invalid') return platformError('invalid_blocks');
    const record: PostedMessage = {
      channel: channelId,
      text,
      ts,
      params,
      ...(blocks === undefined ? {} : { blocks }),
      ...(threadTs === undefined ? {} : { thread_ts: threadTs }),
      ...(mrkdwn === undefined ? {} : { mrkdwn }),
      ...(metadata === undefined ? {} : { metadata }),
    };
    posted.push(record);
    for (const listener of postListeners) listener(record);
    return ok({
      channel: channelId,
      ts,
      message: {
        type: 'message',
        text,
        user: bot.userId,
        bot_id: bot.botId,
        ts,
        team: bot.teamId,
        ...(threadTs === undefined ? {} : { thread_ts: threadTs }),
      },
    });
  }

  /** chat.update: the bot's own message; `blocks: []` removes its blocks. */
  function updateMessage(params: Params): Answer {
    const target = posted.find((m) => m.channel === params.channel && m.ts === params.ts);
    if (target === undefined) return platformError('message_not_found');
    const text = typeof params.text === 'string' ? params.text : target.text;
    if (text.length > MAX_TEXT_LENGTH) return platformError('msg_too_long');
    const blocks = parseBlocks(params.blocks);
    if (blocks === 'invalid') return platformError('invalid_blocks');
    target.text = text;
    target.edits = [...(target.edits ?? []), text];
    if (blocks !== undefined) target.blocks = blocks;
    return ok({ channel: target.channel, ts: target.ts, text });
  }

  function postEphemeral(params: Params): Answer {
    const channel = typeof params.channel === 'string' ? params.channel : '';
    const user = typeof params.user === 'string' ? params.user : '';
    const text = typeof params.text === 'string' ? params.text : '';
    if (!channels.has(channel)) return platformError('channel_not_found');
    if (user === '') return platformError('user_not_found');
    if (text === '') return platformError('no_text');
    const threadTs = typeof params.thread_ts === 'string' ? params.thread_ts : undefined;
    ephemerals.push({ channel, user, text, ...(threadTs === undefined ? {} : { thread_ts: threadTs }) });
    return ok({ message_ts: nextTs() });
  }

  function blockActionsPayload(input: BlockActionInput): Record<string, unknown> {
    const message = posted.find((m) => m.channel === input.channel && m.ts === input.messageTs);
    if (message === undefined) throw new Error(`fake slack: no message ${input.messageTs} in ${input.channel}`);
    const elements = (message.blocks ?? []).flatMap((b) =>
      isRecord(b) && Array.isArray(b.elements) ? (b.elements as Params[]) : [],
    );
    const button = elements.find((e) => e.action_id === input.actionId);
    if (button === undefined) throw new Error(`fake slack: message ${input.messageTs} has no button ${input.actionId}`);
    return {
      type: 'block_actions',
      user: { id: input.user, username: input.user, name: input.user, team_id: bot.teamId },
      api_app_id: bot.appId,
      token: 'verification-token-unused',
      container: { type: 'message', message_ts: message.ts, channel_id: message.channel, is_ephemeral: false },
      trigger_id: `${Date.now()}.trigger`,
      team: { id: bot.teamId, domain: 'fake-team' },
      enterprise: null,
      is_enterprise_install: false,
      channel: { id: message.channel, name: message.channel },
      message: {
        type: 'message',
        user: bot.userId,
        bot_id: bot.botId,
        text: message.text,
        ts: message.ts,
        ...(message.thread_ts === undefined ? {} : { thread_ts: message.thread_ts }),
        blocks: message.blocks,
      },
      state: { values: {} },
      response_url: `${origin}/actions/response`,
      actions: [
        {
          action_id: button.action_id,
          block_id: 'approval',
          text: button.text,
          value: button.value,
          type: 'button',
          action_ts: nextTs(),
        },
      ],
    };
  }

  /** A posted message as conversations.history / .replies show it (metadata only when asked for). */
  function historyMessage(m: PostedMessage, withMetadata: boolean): Params {
    return {
      type: 'message',
      text: m.text,
      user: bot.userId,
      bot_id: bot.botId,
      ts: m.ts,
      ...(m.thread_ts === undefined ? {} : { thread_ts: m.thread_ts }),
      ...(withMetadata && m.metadata !== undefined ? { metadata: m.metadata } : {}),
    };
  }

  /** conversations.history (newest first, thread replies left out) and conversations.replies (oldest first) over the bot's posts. */
  function readMessages(method: 'conversations.history' | 'conversations.replies', params: Params): Answer {
    const channelId = typeof params.channel === 'string' ? params.channel : '';
    if (!channels.has(channelId)) return platformError('channel_not_found');
    const limit = Math.max(1, Math.min(1000, Number(params.limit ?? 100) || 100));
    const withMetadata = asBoolean(params.include_all_metadata) === true;
    const inChannel = posted.filter((m) => m.channel === channelId);
    if (method === 'conversations.history') {
      const top = inChannel
        .filter((m) => m.thread_ts === undefined)
        .reverse()
        .slice(0, limit);
      return ok({ messages: top.map((m) => historyMessage(m, withMetadata)), has_more: false });
    }
    const threadTs = typeof params.ts === 'string' ? params.ts : '';
    if (threadTs === '') return platformError('thread_not_found');
    const thread = inChannel.filter((m) => m.ts === threadTs || m.thread_ts === threadTs).slice(0, limit);
    return ok({ messages: thread.map((m) => historyMessage(m, withMetadata)), has_more: false });
  }

  function answerMethod(method: string, params: Params, auth: SlackCall['auth']): Answer {
    if (method === 'apps.connections.open') {
      if (auth === 'none') return platformError('not_authed');
      if (auth === 'bot') return platformError('not_allowed_token_type');
      if (auth !== 'app') return platformError('invalid_auth');
      const ticket = randomUUID();
      tickets.add(ticket);
      return ok({ url: `ws://127.0.0.1:${port}${SOCKET_PATH}?ticket=${ticket}&app_id=${bot.appId}` });
    }
    if (auth === 'none') return platformError('not_authed');
    if (auth === 'app') return platformError('not_allowed_token_type');
    if (auth !== 'bot') return platformError('invalid_auth');
    switch (method) {
      case 'auth.test':
        return ok({
          url: 'https://fake-team.slack.com/',
          team: 'Fake Team',
          user: bot.name,
          team_id: bot.teamId,
          user_id: bot.userId,
          bot_id: bot.botId,
          is_enterprise_install: false,
        });
      case 'chat.postMessage':
        return postMessage(params);
      case 'files.getUploadURLExternal':
        return uploads.getUploadUrl(params);
      case 'files.completeUploadExternal':
        return uploads.complete(params, (id) => channels.has(id));
      case 'chat.postEphemeral':
        return postEphemeral(params);
      case 'chat.update': {
        // checked and recorded as an edit (slack-edits.ts); then the message shows it, blocks too
        const answer = edits['chat.update'](params);
        return (answer.body as { ok?: boolean }).ok === true ? updateMessage(params) : answer;
      }
      case 'reactions.add':
      case 'reactions.remove':
        return edits[method](params);
      case 'conversations.history':
      case 'conversations.replies':
        return readMessages(method, params);
      case 'users.info': {
        const user = typeof params.user === 'string' ? users.get(params.user) : undefined;
        if (user === undefined) return platformError('user_not_found');
        return ok({
          user: {
            id: user.id,
            team_id: bot.teamId,
            name: user.name,
            real_name: user.real_name ?? user.name,
            is_bot: user.is_bot === true,
            profile: { real_name: user.real_name ?? user.name, display_name: user.name },
          },
        });
      }
      case 'conversations.info': {
        const id = typeof params.channel === 'string' ? params.channel : '';
        if (!channels.has(id)) return platformError('channel_not_found');
        return ok({ channel: channelAnswer(id) });
      }
      default:
        return platformError('unknown_method');
    }
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = url.pathname.slice('/api/'.length);
    const raw = await readBody(req);
    const params = parseParams(req, raw, url.searchParams);
    if (params === undefined) {
      sendJson(res, platformError('invalid_form_data'));
      return;
    }
    const auth = authOf(req, params);
    const call: SlackCall = { method, params, auth, status: 200, at: Date.now() };
    calls.push(call);
    const failure = takeFailure(method);
    if (failure !== undefined) {
      if ('network' in failure) {
        call.status = 0;
        req.socket.destroy();
        return;
      }
      if ('rateLimited' in failure) {
        call.status = 429;
        call.error = 'ratelimited';
        sendJson(res, {
          status: 429,
          body: { ok: false, error: 'ratelimited' },
          headers: { 'retry-after': String(failure.rateLimited) },
        });
        return;
      }
      if ('status' in failure) {
        call.status = failure.status;
        res.writeHead(failure.status, { 'content-type': 'text/plain' });
        res.end(`fake slack: HTTP ${failure.status}`);
        return;
      }
      call.error = failure.error;
      sendJson(res, platformError(failure.error));
      return;
    }
    const answer = answerMethod(method, params, auth);
    call.status = answer.status;
    const body = answer.body as Params;
    if (body.ok === false && typeof body.error === 'string') call.error = body.error;
    sendJson(res, answer);
  }

  function handleFile(req: IncomingMessage, res: ServerResponse, url: URL): void {
    // /files-pri/<team>-<fileId>/<name> or /files-pri/<team>-<fileId>/download/<name>
    const [owner] = url.pathname.slice(FILES_PREFIX.length).split('/');
    const fileId = owner?.split('-').pop() ?? '';
    const stored = files.get(fileId);
    const authorized = req.headers.authorization === `Bearer ${botToken}`;
    downloads.push({ fileId, authorized });
    if (stored === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('file not found');
      return;
    }
    if (!authorized) {
      // as Slack: no token, no file; a redirect to the sign-in page
      res.writeHead(302, { location: `${origin}/signin?redir=${encodeURIComponent(url.pathname)}` });
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': stored.file.mimetype, 'content-length': stored.data.length });
    res.end(stored.data);
  }

  async function handleHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', origin);
    if (req.method === 'POST' && url.pathname.startsWith('/api/')) return handleApi(req, res, url);
    if (req.method === 'GET' && url.pathname.startsWith(FILES_PREFIX)) return handleFile(req, res, url);
    if (req.method === 'POST' && url.pathname.startsWith(UPLOAD_PREFIX)) {
      return uploads.upload(req, await readBody(req), res, url.pathname);
    }
    if (req.method === 'GET' && url.pathname === '/signin') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!DOCTYPE html><html><body>Sign in to Slack</body></html>');
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  }

  // ---- Socket Mode ----

  const liveConnections = (): Connection[] => [...connections.values()].filter((c) => c.live && !c.silent);

  function send(connection: Connection, frame: object | string): void {
    if (connection.silent || connection.ws.readyState !== connection.ws.OPEN) return;
    connection.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  function flushQueue(): void {
    const target = liveConnections().at(-1);
    if (target === undefined) return;
    while (queue.length > 0) {
      const envelope = queue.shift();
      if (envelope !== undefined) send(target, envelope);
    }
  }

  function deliver(envelope: EventsApiEnvelope): EventsApiEnvelope {
    queue.push(envelope);
    flushQueue();
    return envelope;
  }

  function onFrame(data: RawData): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(data.toString());
    } catch {
      return; // Slack ignores frames it cannot read
    }
    if (isRecord(parsed) && typeof parsed.envelope_id === 'string') {
      acks.push({ envelopeId: parsed.envelope_id, payload: parsed.payload, at: Date.now() });
    }
  }

  function accept(ws: WebSocket, socket: Socket): void {
    totalConnections += 1;
    const id = totalConnections;
    let markClosed: () => void = () => {};
    const closedPromise = new Promise<void>((resolve) => {
      markClosed = resolve;
    });
    const connection: Connection = {
      id,
      ws,
      socket,
      live: false,
      silent: false,
      closed: closedPromise,
      pinger: setInterval(() => {
        if (!connection.silent && ws.readyState === ws.OPEN) ws.ping(Buffer.from(`fake-slack-ping-${Date.now()}`));
      }, pingIntervalMs),
    };
    connection.pinger.unref();
    connections.set(id, connection);
    maxOpen = Math.max(maxOpen, connections.size);
    ws.on('ping', (data: Buffer) => {
      if (!connection.silent && ws.readyState === ws.OPEN) ws.pong(data);
    });
    ws.on('message', (data: RawData, isBinary: boolean) => {
      if (!connection.silent && !isBinary) onFrame(data);
    });
    ws.on('error', () => {});
    ws.on('close', (code: number) => closes.push({ connection: id, code }));
    // a connection counts as open until its TCP connection is gone
    socket.once('close', () => {
      clearInterval(connection.pinger);
      connections.delete(id);
      markClosed();
    });
    if (helloWithheld > 0) {
      helloWithheld -= 1;
      return;
    }
    connection.live = true;
    send(connection, {
      type: 'hello',
      num_connections: liveConnections().length,
      debug_info: { host: 'applink-fake-1', build_number: 1, approximate_connection_time: 18_060 },
      connection_info: { app_id: bot.appId },
    });
    flushQueue();
  }

  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const url = new URL(req.url ?? '/', origin);
    const ticket = url.searchParams.get('ticket') ?? '';
    if (closed || url.pathname !== SOCKET_PATH || !tickets.delete(ticket)) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => accept(ws, socket));
  });

  /** Closes one socket the polite way: close frame, wait for the client's, then terminate. */
  async function closeConnection(connection: Connection, code: number): Promise<void> {
    if (connection.silent) {
      connection.socket.destroy();
    } else {
      connection.ws.close(code, 'fake slack closing');
      const timer = setTimeout(() => connection.ws.terminate(), closeHandshakeMs);
      timer.unref();
      await connection.closed;
      clearTimeout(timer);
    }
    await connection.closed;
  }

  // ---- events ----

  function registerChannel(id: string, type: ChannelType): void {
    if (!channels.has(id)) channels.set(id, { id, name: type === 'im' ? id : `channel-${id.toLowerCase()}`, type });
  }

  function messageEvent(input: MessageInput): SlackMessageEvent {
    const channelType = input.channelType ?? (input.channel.startsWith('D') ? 'im' : 'channel');
    registerChannel(input.channel, channelType);
    if (!users.has(input.user) && input.botId === undefined)
      users.set(input.user, { id: input.user, name: `user-${input.user.toLowerCase()}` });
    const ts = input.ts ?? nextTs();
    return {
      type: 'message',
      channel: input.channel,
      user: input.user,
      text: input.text ?? '',
      ts,
      event_ts: ts,
      channel_type: channelType,
      team: bot.teamId,
      ...(input.botId === undefined ? { client_msg_id: randomUUID() } : { bot_id: input.botId }),
      ...(input.threadTs === undefined ? {} : { thread_ts: input.threadTs, parent_user_id: input.user }),
      ...(input.subtype === undefined ? {} : { subtype: input.subtype }),
      ...(input.files === undefined ? {} : { files: input.files }),
      blocks: [],
    };
  }

  function appMentionEvent(message: SlackMessageEvent): SlackMessageEvent {
    const { channel_type: _channelType, subtype: _subtype, ...rest } = message;
    return { ...rest, type: 'app_mention' };
  }

  function eventCallback(event: object, eventId?: string): EventCallbackBody {
    const now = Math.floor(Date.now() / 1000);
    return {
      token: 'fake-verification-token',
      team_id: bot.teamId,
      api_app_id: bot.appId,
      event: { ...event },
      type: 'event_callback',
      event_id: eventId ?? nextId('Ev'),
      event_time: now,
      authorizations: [{ enterprise_id: null, team_id: bot.teamId, user_id: bot.userId, is_bot: true }],
      is_ext_shared_channel: false,
      event_context: `4-${randomUUID()}`,
    };
  }

  function envelopeFor(payload: EventCallbackBody, retry: number, reason: string): EventsApiEnvelope {
    return {
      envelope_id: randomUUID(),
      type: 'events_api',
      payload,
      accepts_response_payload: false,
      retry_attempt: retry,
      retry_reason: reason,
    };
  }

  function signedRequest(body: unknown, sign: SignOptions = {}): SignedRequest {
    const rawBody = typeof body === 'string' ? body : JSON.stringify(body);
    const timestamp = String(sign.timestampS ?? Math.floor(Date.now() / 1000));
    const signature = createHmac('sha256', sign.secret ?? signingSecret)
      .update(`v0:${timestamp}:${rawBody}`)
      .digest('hex');
    return {
      rawBody,
      headers: {
        'content-type': 'application/json',
        'x-slack-request-timestamp': timestamp,
        'x-slack-signature': `v0=${signature}`,
        ...(sign.retryNum === undefined
          ? {}
          : { 'x-slack-retry-num': String(sign.retryNum), 'x-slack-retry-reason': sign.retryReason ?? 'http_timeout' }),
      },
    };
  }

  return {
    apiUrl: `${origin}/api/`,
    origin,
    botToken,
    appToken,
    signingSecret,
    bot,
    calls,
    posted,
    sharedFiles: uploads.shared,
    ephemerals,
    blockActionsPayload,
    pushBlockAction(input) {
      const envelope: InteractiveEnvelope = {
        envelope_id: randomUUID(),
        type: 'interactive',
        payload: blockActionsPayload(input),
        accepts_response_payload: false,
      };
      queue.push(envelope);
      flushQueue();
      return envelope;
    },
    async postBlockAction(url, input) {
      const form = new URLSearchParams({ payload: JSON.stringify(blockActionsPayload(input)) }).toString();
      const request = signedRequest(form);
      const headers = { ...request.headers, 'content-type': 'application/x-www-form-urlencoded' };
      const response = await fetch(url, { method: 'POST', headers, body: request.rawBody });
      return { status: response.status, text: await response.text() };
    },
    updates,
    reactionsOn: (channel, ts) => [...(reactions.get(`${channel}:${ts}`) ?? [])],
    acks,
    downloads,
    closes,
    connectionCount: () => totalConnections,
    openConnections: () => connections.size,
    maxOpenConnections: () => maxOpen,
    queued: () => queue.filter((e): e is EventsApiEnvelope => e.type === 'events_api'),
    addUser(user) {
      users.set(user.id, user);
      return user;
    },
    addChannel(channel) {
      channels.set(channel.id, channel);
      return channel;
    },
    addFile(input) {
      const id = nextId('F');
      const data = typeof input.data === 'string' ? Buffer.from(input.data) : Buffer.from(input.data);
      const base = `${origin}${FILES_PREFIX}${bot.teamId}-${id}`;
      const file: SlackFile = {
        id,
        name: input.name,
        title: input.name,
        mimetype: input.mimetype ?? 'application/octet-stream',
        filetype: filetypeOf(input.name),
        size: data.length,
        url_private: `${base}/${encodeURIComponent(input.name)}`,
        url_private_download: `${base}/download/${encodeURIComponent(input.name)}`,
      };
      files.set(id, { file, data });
      return file;
    },
    nextTs,
    messageEvent,
    appMentionEvent,
    eventCallback,
    pushEvent: (event) => deliver(envelopeFor(eventCallback(event), 0, '')),
    pushMessage(input) {
      const event = messageEvent(input);
      const message = deliver(envelopeFor(eventCallback(event), 0, ''));
      const mentions = (event.text ?? '').includes(`<@${bot.userId}`);
      if (!mentions || event.channel_type === 'im' || input.botId !== undefined) return { message };
      return { message, mention: deliver(envelopeFor(eventCallback(appMentionEvent(event)), 0, '')) };
    },
    redeliver: (envelope) => deliver(envelopeFor(envelope.payload, envelope.retry_attempt + 1, 'timeout')),
    pushRaw(frame) {
      const target = liveConnections().at(-1);
      if (target === undefined) throw new Error('fake slack: no live socket for a raw frame');
      send(target, frame);
    },
    disconnect(reason = 'refresh_requested') {
      for (const connection of liveConnections()) {
        send(connection, { type: 'disconnect', reason, debug_info: { host: 'applink-fake-1' } });
      }
    },
    silence() {
      for (const connection of connections.values()) {
        connection.silent = true;
        // stop ws from reading: frames (pings, close frames, acks) are swallowed; TCP close is still seen
        connection.socket.removeAllListeners('data');
        connection.socket.on('data', () => {});
      }
    },
    withholdHello(count = 1) {
      helloWithheld += count;
    },
    async closeSockets(code = 1001) {
      await Promise.all([...connections.values()].map((connection) => closeConnection(connection, code)));
    },
    failNext(method, failure, times = 1) {
      const list = failures.get(method) ?? [];
      for (let i = 0; i < times; i += 1) list.push(failure);
      failures.set(method, list);
    },
    signedRequest,
    async postEvent(url, body, sign) {
      const request = signedRequest(body, sign);
      const response = await fetch(url, { method: 'POST', headers: request.headers, body: request.rawBody });
      return { status: response.status, text: await response.text() };
    },
    async waitForAck(envelopeId, timeoutMs = 5_000) {
      await until(() => acks.some((ack) => ack.envelopeId === envelopeId), timeoutMs, `ack of ${envelopeId}`);
      const ack = acks.find((a) => a.envelopeId === envelopeId);
      if (ack === undefined) throw new Error('unreachable');
      return ack;
    },
    async waitForPosts(count, timeoutMs = 5_000) {
      await until(() => posted.length >= count, timeoutMs, `${count} chat.postMessage`);
      return posted;
    },
    waitForConnections: (count, timeoutMs = 5_000) =>
      until(() => totalConnections >= count, timeoutMs, `${count} socket connections`),
    waitForLiveSocket: (timeoutMs = 5_000) => until(() => liveConnections().length > 0, timeoutMs, 'a live socket'),
    onPost(listener) {
      postListeners.add(listener);
      return () => void postListeners.delete(listener);
    },
    reset() {
      calls.length = 0;
      posted.length = 0;
      uploads.reset();
      updates.length = 0;
      reactions.clear();
      acks.length = 0;
      downloads.length = 0;
      closes.length = 0;
      failures.clear();
      queue.length = 0;
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...connections.values()].map((connection) => closeConnection(connection, 1001)));
      wss.close();
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
        for (const socket of httpSockets) socket.destroy();
      });
    },
  };
}
