// A protocol-faithful fake Discord on loopback (REST API v10 + the gateway WebSocket), driven by the
// real discord.js: HELLO/heartbeats/IDENTIFY/READY/GUILD_CREATE, sequence numbers, RESUME with replay,
// message and interaction dispatches, the REST routes a bot uses, and scriptable failures.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { APIAttachment, APIMessage, APIUser } from 'discord.js';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import { type DiscordEdit, discordEditRoutes } from './discord-edits.js';
import { type MultipartFile, multipartBoundary, parseMultipartBody } from './multipart.js';

export type { DiscordEdit } from './discord-edits.js';

/** Discord's epoch (2015-01-01), the origin of snowflake timestamps. */
const DISCORD_EPOCH_MS = 1_420_070_400_000;
const MAX_CONTENT_LENGTH = 2000;
const DEFAULT_HEARTBEAT_INTERVAL_MS = 41_250;
/** how long a session stays resumable without a connection (Discord keeps it for a while, too) */
const RESUME_WINDOW_MS = 60_000;
/** dispatches kept per session for replay on RESUME */
const SESSION_LOG_MAX = 1_000;
const MESSAGE_CONTENT_INTENT = 1 << 15;

type Json = Record<string, unknown>;

/** A channel as the fake keeps it: Discord's channel object (the fields differ by type). */
interface FakeChannel extends Json {
  id: string;
  type: number;
}

/** Gateway opcodes (https://discord.com/developers/docs/topics/opcodes-and-status-codes). */
const OP = {
  dispatch: 0,
  heartbeat: 1,
  identify: 2,
  presenceUpdate: 3,
  resume: 6,
  reconnect: 7,
  requestGuildMembers: 8,
  invalidSession: 9,
  hello: 10,
  heartbeatAck: 11,
} as const;

/** A MESSAGE_CREATE payload: the message plus the gateway's extra fields. */
export type DispatchedMessage = APIMessage & { guild_id?: string; member?: Json; channel_type?: number };

export interface FakeDiscordOptions {
  /** the one bot token the fake accepts (REST `Authorization: Bot <token>`, IDENTIFY, RESUME) */
  token: string;
  /** heartbeat_interval in HELLO; default 41250 ms as on Discord */
  heartbeatIntervalMs?: number;
  /** guild text channels besides none; default 2 (`general`, `random`) */
  textChannels?: number;
  /** false closes IDENTIFY asking for MESSAGE_CONTENT with 4014, as for an app without the privileged intent */
  allowMessageContent?: boolean;
  now?: () => number;
}

/** The named REST routes failures can be scripted for. */
export type FakeRoute =
  | 'gatewayBot'
  | 'getChannel'
  | 'listMessages'
  | 'createMessage'
  | 'typing'
  | 'bulkOverwriteCommands'
  | 'interactionCallback'
  | 'editOriginal'
  | 'followup'
  | 'attachment'
  | 'editMessage'
  | 'addReaction'
  | 'removeReaction';

/** A scripted failure: an HTTP error in Discord's shape, or a connection destroyed without an answer. */
export type FakeFailure =
  | { status: number; code?: number; message?: string; errors?: Json; retryAfterMs?: number; global?: boolean }
  | { network: true };

/** One REST request as the fake received it. */
export interface RecordedCall {
  method: string;
  /** path after `/api/v10`, e.g. `/channels/1/messages` */
  path: string;
  route: FakeRoute | 'other';
  body: unknown;
  /** the HTTP status answered (0 for a destroyed connection) */
  status: number;
  at: number;
}

/** One gateway payload a client sent. */
export interface RecordedOp {
  op: number;
  d: unknown;
  /** 1-based index of the connection it came on */
  connection: number;
  at: number;
}

/** One message the bot made visible: a channel message, an interaction's original response or a followup. */
export interface SentMessage {
  id: string;
  channel_id: string;
  content: string;
  via: 'channel' | 'interaction_original' | 'interaction_followup';
  interactionId?: string;
  message_reference?: { message_id?: string; fail_if_not_exists?: boolean };
  /** files uploaded with the message (multipart `files[n]`) */
  files?: { fileName: string; contentType: string; size: number; sha256: string }[];
  body: Json;
  /** `performance.now()` when recorded */
  at: number;
  /** the message's components now (createMessage's, replaced by an edit) */
  components?: unknown[];
  /** the contents edits gave it, oldest first */
  edits?: string[];
}

/** A press of a button under one of the bot's messages. */
export interface ButtonPressInput {
  messageId: string;
  customId: string;
  user?: FakeUser;
}

export interface FakeUser {
  id: string;
  name: string;
  bot?: boolean;
}

/** An attachment for a pushed message; the fake serves its bytes at the attachment's `url`. */
export interface FakeFileInput {
  data?: string | Uint8Array;
  fileName?: string;
  contentType?: string;
  /** the size Discord reports; default the real byte length */
  size?: number;
}

export interface MessageInput {
  user?: FakeUser;
  content: string;
  /** prefixes `<@BOT_ID> ` and lists the bot in `mentions` */
  mention?: boolean;
  /** role ids listed in `mention_roles` (the text is left as given) */
  mentionRoles?: string[];
  /** a message id this one replies to, or 'bot' for the bot's last message in the channel */
  replyTo?: string | 'bot';
  attachments?: FakeFileInput[];
  /** leave `channel_type` out of the dispatch (older gateway payloads) */
  omitChannelType?: boolean;
}

export interface InteractionInput {
  name: string;
  /** string options by name */
  options?: Record<string, string>;
  user?: FakeUser;
  where?: 'guild' | 'dm' | 'thread';
  /** a guild channel (text channel or thread) id; default `general` or the thread */
  channelId?: string;
}

export interface FakeInteraction {
  id: string;
  token: string;
  channelId: string;
  /** the callback type answered (5 = deferred channel message), undefined until acknowledged */
  responseType?: number;
  /** the original response, once visible */
  originalId?: string;
  followupIds: string[];
  payload: Json;
}

export interface FakeDiscord {
  /** REST base for discord.js `rest.api`: `http://127.0.0.1:PORT/api` (calls go to `/api/v10/...`) */
  readonly apiBase: string;
  /** what `GET /gateway/bot` answers */
  readonly gatewayUrl: string;
  readonly token: string;
  readonly bot: APIUser;
  readonly applicationId: string;
  readonly guildId: string;
  /** the bot's managed role in the guild */
  readonly botRoleId: string;
  /** guild text channel ids, `general` first */
  readonly textChannelIds: readonly string[];
  /** a public thread in `general` */
  readonly threadId: string;
  readonly sent: readonly SentMessage[];
  /** every successful PATCH of a channel message, oldest first */
  readonly edits: readonly DiscordEdit[];
  /** the bot's own reactions on a message now (unicode emoji, in the order added) */
  reactionsOn(messageId: string): string[];
  /** channel messages not created again because their `nonce` was sent with `enforce_nonce` before */
  readonly nonceHits: number;
  readonly calls: readonly RecordedCall[];
  readonly ops: readonly RecordedOp[];
  /** the last command list written with PUT /applications/:app/commands */
  commands(): readonly Json[] | undefined;
  interactions(): readonly FakeInteraction[];
  /** WebSocket connections accepted so far */
  connectionCount(): number;
  /** WebSocket connections open now */
  openConnections(): number;
  /** the path (with query) each connection asked for, in order */
  connectionPaths(): readonly string[];
  /** true when the newest connection is open and got READY or RESUMED */
  latestReady(): boolean;
  /** the DM channel id between the bot and `user` */
  dmChannelId(user: FakeUser): string;
  /** adds a guild text channel (CHANNEL_CREATE to connected clients) and returns its id */
  addTextChannel(name?: string): string;
  /** adds a public thread in `general`, announced with THREAD_CREATE unless `announce` is false */
  addThread(options?: { announce?: boolean }): string;
  /** sends a dispatch to every live session (buffered for replay while a session is disconnected) */
  dispatch(t: string, d: unknown): void;
  /** sends a raw text frame to every open connection */
  sendRaw(text: string): void;
  guildMessage(input: MessageInput & { channelId?: string }): DispatchedMessage;
  threadMessage(input: MessageInput): DispatchedMessage;
  dmMessage(input: MessageInput): DispatchedMessage;
  /** dispatches INTERACTION_CREATE for a chat-input (slash) command */
  interaction(input: InteractionInput): FakeInteraction;
  /** dispatches INTERACTION_CREATE of type 3 (MESSAGE_COMPONENT): a press of a button the message carries */
  buttonPress(input: ButtonPressInput): FakeInteraction;
  failNext(route: FakeRoute, failure: FakeFailure): void;
  /** the next `count` message sends answer 429 with `retry-after` */
  rateLimitNextSends(count: number, retryAfterMs: number): void;
  /** the next RESUME is answered with op 9 (not resumable): missed dispatches are lost */
  invalidateSessions(): void;
  /** the next IDENTIFY is answered by closing the socket with `code` (4004 bad token, 4014 disallowed intents, ...) */
  refuseNextIdentify(code: number): void;
  /** closes every open socket with `code` (default 4000, resumable); 1006 destroys them without a close frame */
  dropConnections(code?: number): Promise<void>;
  /** called synchronously for every message recorded in `sent` */
  onSend(listener: (message: SentMessage) => void): () => void;
  /** resolves once `check()` is true (re-checked on every call, op, send and connection change) */
  until(check: () => boolean, timeoutMs?: number, what?: string): Promise<void>;
  /** clears records, failures and interactions; connections and sessions stay */
  reset(): void;
  close(): Promise<void>;
}

interface Session {
  id: string;
  seq: number;
  log: { op: 0; t: string; s: number; d: unknown }[];
  connection: Connection | null;
  detachedAt: number;
}

interface Connection {
  index: number;
  ws: WebSocket;
  path: string;
  session: Session | null;
  /** READY or RESUMED was sent on this connection */
  ready: boolean;
}

interface StoredMessage {
  message: APIMessage;
}

interface StoredFile {
  data: Buffer;
  contentType: string;
}

interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function apiError(status: number, code: number, message: string, errors?: Json): Answer {
  return { status, body: { message, code, ...(errors === undefined ? {} : { errors }) } };
}

function fieldError(field: string, code: string, message: string): Answer {
  return apiError(400, 50035, 'Invalid Form Body', { [field]: { _errors: [{ code, message }] } });
}

const DEFAULT_ERRORS: Record<number, { code: number; message: string }> = {
  400: { code: 50035, message: 'Invalid Form Body' },
  401: { code: 0, message: '401: Unauthorized' },
  403: { code: 50013, message: 'Missing Permissions' },
  404: { code: 10003, message: 'Unknown Channel' },
  500: { code: 0, message: '500: Internal Server Error' },
  502: { code: 0, message: '502: Bad Gateway' },
};

function failureAnswer(failure: Exclude<FakeFailure, { network: true }>): Answer {
  if (failure.status === 429) {
    const seconds = (failure.retryAfterMs ?? 1000) / 1000;
    return {
      status: 429,
      body: { message: failure.message ?? 'You are being rate limited.', retry_after: seconds, global: false },
      headers: {
        // Discord sends whole seconds here; the fake keeps fractions so tests wait only milliseconds
        'retry-after': String(seconds),
        'x-ratelimit-scope': 'user',
        ...(failure.global === true ? { 'x-ratelimit-global': 'true' } : {}),
      },
    };
  }
  const fallback = DEFAULT_ERRORS[failure.status] ?? { code: 0, message: `${failure.status}: Error` };
  return apiError(failure.status, failure.code ?? fallback.code, failure.message ?? fallback.message, failure.errors);
}

/** The key under which a multipart body's files reach the route handlers (not a Discord field). */
const UPLOADS = '__uploads';

/** The files of a multipart body, as parseJsonBody put them. */
function uploadsOf(body: Json): MultipartFile[] {
  const files = body[UPLOADS];
  return Array.isArray(files) ? (files as MultipartFile[]) : [];
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function parseJsonBody(req: IncomingMessage, raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  const type = req.headers['content-type'] ?? '';
  const boundary = multipartBoundary(type);
  if (boundary !== null) {
    // discord.js sends `payload_json` as one part and each file as `files[n]`
    const parsed = parseMultipartBody(raw, boundary);
    const json = parsed.fields.payload_json;
    if (json === undefined) return undefined;
    const payload: unknown = JSON.parse(json);
    if (!isRecord(payload) || parsed.files.length === 0) return payload;
    return { ...payload, [UPLOADS]: parsed.files };
  }
  return JSON.parse(raw.toString('utf8'));
}

/** Starts the fake on 127.0.0.1 on a free port. */
export async function startFakeDiscord(options: FakeDiscordOptions): Promise<FakeDiscord> {
  const now = options.now ?? Date.now;
  const heartbeatIntervalMs = options.heartbeatIntervalMs ?? DEFAULT_HEARTBEAT_INTERVAL_MS;
  let increment = 0;
  const snowflake = (): string => {
    increment = (increment + 1) % 4096;
    return String((BigInt(now() - DISCORD_EPOCH_MS) << 22n) | (1n << 17n) | BigInt(increment));
  };
  const iso = (): string => new Date(now()).toISOString();

  const bot: APIUser = {
    id: snowflake(),
    username: 'hermes-test',
    discriminator: '0',
    global_name: 'Hermes',
    avatar: null,
    bot: true,
  };
  const applicationId = bot.id;
  const guildId = snowflake();
  const botRoleId = snowflake();
  const textChannels: FakeChannel[] = [];
  const users = new Map<string, APIUser>();
  const dmChannels = new Map<string, FakeChannel>();
  const channels = new Map<string, FakeChannel>();
  const messages = new Map<string, StoredMessage>();
  const lastBotMessage = new Map<string, APIMessage>();
  const files = new Map<string, StoredFile>();
  const failures = new Map<FakeRoute, FakeFailure[]>();
  const interactions = new Map<string, FakeInteraction>();
  const sessions = new Map<string, Session>();
  const connections: Connection[] = [];
  const sockets = new Set<Socket>();
  const sent: SentMessage[] = [];
  const calls: RecordedCall[] = [];
  const ops: RecordedOp[] = [];
  const sendListeners = new Set<(message: SentMessage) => void>();
  const wakers = new Set<() => void>();
  let commands: Json[] | undefined;
  let invalidateNextResume = false;
  const refusedIdentifies: number[] = [];
  let port = 0;

  const wake = (): void => {
    for (const waker of [...wakers]) waker();
  };

  function textChannel(name: string, position: number): FakeChannel {
    return {
      id: snowflake(),
      type: 0,
      guild_id: guildId,
      name,
      position,
      permission_overwrites: [],
      nsfw: false,
      topic: null,
      last_message_id: null,
      rate_limit_per_user: 0,
      parent_id: null,
      flags: 0,
    };
  }

  const general = textChannel('general', 0);
  for (let i = 0; i < Math.max(1, options.textChannels ?? 2); i++) {
    const channel = i === 0 ? general : textChannel(i === 1 ? 'random' : `channel-${i}`, i);
    textChannels.push(channel);
    channels.set(channel.id, channel);
  }
  function publicThread(name: string): FakeChannel {
    return {
      id: snowflake(),
      type: 11,
      guild_id: guildId,
      parent_id: general.id,
      owner_id: snowflake(),
      name,
      last_message_id: null,
      message_count: 0,
      member_count: 1,
      rate_limit_per_user: 0,
      flags: 0,
      total_message_sent: 0,
      thread_metadata: { archived: false, auto_archive_duration: 1440, archive_timestamp: iso(), locked: false },
    };
  }
  const thread = publicThread('a thread');
  channels.set(thread.id, thread);

  function apiUser(user: FakeUser): APIUser {
    const known = users.get(user.id);
    if (known !== undefined) return known;
    const created: APIUser = {
      id: user.id,
      username: user.name.toLowerCase().replace(/[^a-z0-9_.]/g, '_'),
      discriminator: '0',
      global_name: user.name,
      avatar: null,
      ...(user.bot === true ? { bot: true } : {}),
    };
    users.set(user.id, created);
    return created;
  }

  function dmChannelFor(user: FakeUser): FakeChannel {
    const known = dmChannels.get(user.id);
    if (known !== undefined) return known;
    const channel: FakeChannel = { id: snowflake(), type: 1, recipients: [apiUser(user)], last_message_id: null };
    dmChannels.set(user.id, channel);
    channels.set(channel.id, channel);
    return channel;
  }

  function member(): Json {
    return {
      roles: [],
      joined_at: iso(),
      deaf: false,
      mute: false,
      flags: 0,
    };
  }

  function roles(): Json[] {
    const base = { hoist: false, icon: null, unicode_emoji: null, mentionable: false, flags: 0, color: 0 };
    const colors = { primary_color: 0, secondary_color: null, tertiary_color: null };
    return [
      { ...base, colors, id: guildId, name: '@everyone', position: 0, permissions: '1071698660929', managed: false },
      {
        ...base,
        colors,
        id: botRoleId,
        name: 'Hermes',
        position: 1,
        permissions: '274877991936',
        managed: true,
        tags: { bot_id: bot.id },
      },
    ];
  }

  function guildCreate(): Json {
    return {
      id: guildId,
      name: 'Hermes Test Guild',
      icon: null,
      splash: null,
      discovery_splash: null,
      owner_id: snowflake(),
      afk_channel_id: null,
      afk_timeout: 300,
      verification_level: 0,
      default_message_notifications: 0,
      explicit_content_filter: 0,
      roles: roles(),
      emojis: [],
      features: [],
      mfa_level: 0,
      application_id: null,
      system_channel_id: null,
      system_channel_flags: 0,
      rules_channel_id: null,
      vanity_url_code: null,
      description: null,
      banner: null,
      premium_tier: 0,
      preferred_locale: 'en-US',
      public_updates_channel_id: null,
      nsfw_level: 0,
      stickers: [],
      premium_progress_bar_enabled: false,
      hub_type: null,
      safety_alerts_channel_id: null,
      incidents_data: null,
      joined_at: iso(),
      large: false,
      unavailable: false,
      member_count: 2,
      voice_states: [],
      members: [{ ...member(), user: bot, roles: [botRoleId] }],
      channels: textChannels,
      threads: [thread],
      presences: [],
      stage_instances: [],
      guild_scheduled_events: [],
      soundboard_sounds: [],
    };
  }

  // ---- files -------------------------------------------------------------------------------

  function attachment(channelId: string, input: FakeFileInput): APIAttachment {
    const id = snowflake();
    const data = Buffer.from(input.data ?? `fake file ${id}`);
    const fileName = input.fileName ?? 'file.bin';
    const contentType = input.contentType ?? 'application/octet-stream';
    files.set(id, { data, contentType });
    const path = `/attachments/${channelId}/${id}/${encodeURIComponent(fileName)}`;
    const signature = `?ex=${Math.floor(now() / 1000 + 86_400).toString(16)}&is=0&hm=fake`;
    return {
      id,
      filename: fileName,
      size: input.size ?? data.length,
      url: `http://127.0.0.1:${port}${path}${signature}`,
      proxy_url: `http://127.0.0.1:${port}/media${path}${signature}`,
      content_type: contentType,
      ...(contentType.startsWith('image/') ? { width: 64, height: 64 } : {}),
    };
  }

  // ---- gateway -----------------------------------------------------------------------------

  function send(connection: Connection, payload: Json): void {
    if (connection.ws.readyState === WebSocket.OPEN) connection.ws.send(JSON.stringify(payload));
  }

  function dispatchTo(session: Session, t: string, d: unknown): void {
    session.seq += 1;
    const payload = { op: OP.dispatch, t, s: session.seq, d };
    session.log.push(payload);
    if (session.log.length > SESSION_LOG_MAX) session.log.shift();
    if (session.connection !== null) send(session.connection, payload);
  }

  function dispatch(t: string, d: unknown): void {
    for (const session of [...sessions.values()]) {
      if (session.connection === null && now() - session.detachedAt > RESUME_WINDOW_MS) {
        sessions.delete(session.id);
        continue;
      }
      dispatchTo(session, t, d);
    }
  }

  function identify(connection: Connection, d: unknown): void {
    const refused = refusedIdentifies.shift();
    if (refused !== undefined) {
      connection.ws.close(refused, 'fake: identify refused');
      return;
    }
    if (!isRecord(d) || d.token !== options.token) {
      connection.ws.close(4004, 'Authentication failed.');
      return;
    }
    if (typeof d.intents !== 'number') {
      connection.ws.close(4013, 'Invalid intent(s).');
      return;
    }
    if (options.allowMessageContent === false && (d.intents & MESSAGE_CONTENT_INTENT) !== 0) {
      connection.ws.close(4014, 'Disallowed intent(s).');
      return;
    }
    if (connection.session !== null) {
      connection.ws.close(4005, 'Already authenticated.');
      return;
    }
    const session: Session = { id: snowflake(), seq: 0, log: [], connection, detachedAt: 0 };
    sessions.set(session.id, session);
    connection.session = session;
    dispatchTo(session, 'READY', {
      v: 10,
      user_settings: {},
      user: bot,
      guilds: [{ id: guildId, unavailable: true }],
      session_id: session.id,
      session_type: 'normal',
      resume_gateway_url: `ws://127.0.0.1:${port}/resume`,
      shard: [0, 1],
      application: { id: applicationId, flags: 0 },
      private_channels: [],
      relationships: [],
      presences: [],
      geo_ordered_rtc_regions: [],
      auth: {},
    });
    connection.ready = true;
    dispatchTo(session, 'GUILD_CREATE', guildCreate());
    wake();
  }

  function resume(connection: Connection, d: unknown): void {
    if (!isRecord(d) || d.token !== options.token) {
      connection.ws.close(4004, 'Authentication failed.');
      return;
    }
    const session = typeof d.session_id === 'string' ? sessions.get(d.session_id) : undefined;
    const seq = typeof d.seq === 'number' ? d.seq : -1;
    if (session === undefined || invalidateNextResume || seq > session.seq) {
      invalidateNextResume = false;
      if (session !== undefined) sessions.delete(session.id);
      send(connection, { op: OP.invalidSession, d: false, s: null, t: null });
      return;
    }
    if (session.connection !== null && session.connection !== connection) {
      session.connection.ws.close(4000, 'Session resumed elsewhere.');
    }
    session.connection = connection;
    connection.session = session;
    for (const payload of session.log) if (payload.s > seq) send(connection, payload);
    dispatchTo(session, 'RESUMED', null);
    connection.ready = true;
    wake();
  }

  function onFrame(connection: Connection, data: RawData): void {
    let payload: unknown;
    try {
      payload = JSON.parse(data.toString());
    } catch {
      connection.ws.close(4002, 'Error while decoding payload.');
      return;
    }
    if (!isRecord(payload) || typeof payload.op !== 'number') {
      connection.ws.close(4001, 'Unknown opcode.');
      return;
    }
    ops.push({ op: payload.op, d: payload.d, connection: connection.index, at: now() });
    wake();
    switch (payload.op) {
      case OP.heartbeat:
        send(connection, { op: OP.heartbeatAck, d: null, s: null, t: null });
        return;
      case OP.identify:
        identify(connection, payload.d);
        return;
      case OP.resume:
        resume(connection, payload.d);
        return;
      case OP.presenceUpdate:
      case OP.requestGuildMembers:
        if (connection.session === null) connection.ws.close(4003, 'Not authenticated.');
        return;
      default:
        connection.ws.close(4001, 'Unknown opcode.');
    }
  }

  const wss = new WebSocketServer({ noServer: true });
  wss.on('connection', (ws: WebSocket, req: IncomingMessage) => {
    const connection: Connection = {
      index: connections.length + 1,
      ws,
      path: req.url ?? '/',
      session: null,
      ready: false,
    };
    connections.push(connection);
    const query = new URL(connection.path, 'ws://fake').searchParams;
    ws.on('message', (data) => onFrame(connection, data));
    ws.on('close', (code) => {
      const session = connection.session;
      if (session !== null && session.connection === connection) {
        session.connection = null;
        session.detachedAt = now();
        // a client closing with 1000/1001 ends its session; any other code keeps it resumable
        if (code === 1000 || code === 1001) sessions.delete(session.id);
      }
      wake();
    });
    ws.on('error', () => {}); // a reset socket also ends in 'close'
    wake();
    if (query.get('v') !== '10') {
      ws.close(4012, 'Invalid API version.');
      return;
    }
    if (query.get('encoding') !== 'json') {
      ws.close(4002, 'Error while decoding payload.');
      return;
    }
    send(connection, { op: OP.hello, d: { heartbeat_interval: heartbeatIntervalMs }, s: null, t: null });
  });

  // ---- messages ----------------------------------------------------------------------------

  function store(message: APIMessage): void {
    messages.set(message.id, { message });
  }

  function referenceTo(channelId: string, replyTo: string | 'bot' | undefined): APIMessage | undefined {
    if (replyTo === undefined) return undefined;
    if (replyTo !== 'bot') return messages.get(replyTo)?.message;
    const earlier = lastBotMessage.get(channelId);
    if (earlier !== undefined) return earlier;
    const made = botMessage(channelId, 'an earlier answer');
    store(made);
    return made;
  }

  function botMessage(channelId: string, content: string, extra: Partial<APIMessage> = {}): APIMessage {
    const message: APIMessage = {
      id: snowflake(),
      channel_id: channelId,
      author: bot,
      content,
      timestamp: iso(),
      edited_timestamp: null,
      tts: false,
      mention_everyone: false,
      mentions: [],
      mention_roles: [],
      attachments: [],
      embeds: [],
      pinned: false,
      type: 0,
      components: [],
      ...extra,
    };
    lastBotMessage.set(channelId, message);
    return message;
  }

  function userMessage(
    channel: FakeChannel,
    input: MessageInput,
    guild: boolean,
    channelType: number,
  ): DispatchedMessage {
    const user = apiUser(input.user ?? { id: '100000000000000001', name: 'Ada' });
    const content = input.mention === true ? `<@${bot.id}> ${input.content}` : input.content;
    const replied = referenceTo(channel.id, input.replyTo);
    const plain: APIMessage = {
      id: snowflake(),
      channel_id: channel.id,
      author: user,
      content,
      timestamp: iso(),
      edited_timestamp: null,
      tts: false,
      mention_everyone: false,
      mentions: input.mention === true ? [bot] : [],
      mention_roles: input.mentionRoles ?? [],
      attachments: (input.attachments ?? []).map((file) => attachment(channel.id, file)),
      embeds: [],
      pinned: false,
      type: replied === undefined ? 0 : 19,
      components: [],
      nonce: snowflake(),
      ...(replied === undefined
        ? {}
        : {
            message_reference: {
              type: 0,
              message_id: replied.id,
              channel_id: channel.id,
              ...(guild ? { guild_id: guildId } : {}),
            },
            referenced_message: replied,
          }),
    };
    const message: DispatchedMessage = {
      ...plain,
      ...(input.omitChannelType === true ? {} : { channel_type: channelType }),
      ...(guild ? { guild_id: guildId, member: member() } : {}),
    };
    store(plain);
    dispatch('MESSAGE_CREATE', message);
    return message;
  }

  function interaction(input: InteractionInput): FakeInteraction {
    const user = apiUser(input.user ?? { id: '100000000000000001', name: 'Ada' });
    const where = input.where ?? 'guild';
    const channel =
      where === 'dm'
        ? dmChannelFor(input.user ?? { id: user.id, name: user.global_name ?? user.username })
        : (channels.get(input.channelId ?? (where === 'thread' ? thread.id : general.id)) ?? general);
    const id = snowflake();
    const token = `aW50ZXJhY3Rpb246${id}OmZha2U_fake-interaction-token`;
    const options = Object.entries(input.options ?? {}).map(([name, value]) => ({ name, type: 3, value }));
    const payload: Json = {
      id,
      application_id: applicationId,
      type: 2,
      data: {
        id: snowflake(),
        name: input.name,
        type: 1,
        ...(options.length > 0 ? { options } : {}),
      },
      channel: where === 'dm' ? { id: channel.id, type: 1, last_message_id: null, flags: 0 } : channel,
      channel_id: channel.id,
      token,
      version: 1,
      app_permissions: '2248473465835073',
      locale: 'en-US',
      entitlements: [],
      authorizing_integration_owners: { '0': guildId },
      context: where === 'dm' ? 1 : 0,
      attachment_size_limit: 10_485_760,
      ...(where === 'dm'
        ? { user }
        : { guild_id: guildId, guild_locale: 'en-US', member: { ...member(), user, permissions: '2248473465835073' } }),
    };
    const record: FakeInteraction = { id, token, channelId: channel.id, followupIds: [], payload };
    interactions.set(id, record);
    dispatch('INTERACTION_CREATE', payload);
    return record;
  }

  // ---- REST --------------------------------------------------------------------------------

  function record(message: Omit<SentMessage, 'at'>): void {
    const entry = { ...message, at: performance.now() };
    sent.push(entry);
    for (const listener of [...sendListeners]) listener(entry);
  }

  /** Checks `content` as Discord does for message bodies; undefined when it is acceptable. */
  function checkContent(body: Json): Answer | undefined {
    const content = typeof body.content === 'string' ? body.content : '';
    if ([...content].length > MAX_CONTENT_LENGTH) {
      return fieldError('content', 'BASE_TYPE_MAX_LENGTH', 'Must be 2000 or fewer in length.');
    }
    const embeds = Array.isArray(body.embeds) ? body.embeds.length : 0;
    const files = uploadsOf(body).length;
    if (content.trim() === '' && embeds === 0 && files === 0)
      return apiError(400, 50006, 'Cannot send an empty message');
    if (uploadsOf(body).some((f) => f.size === 0)) return apiError(400, 50006, 'Cannot send an empty message');
    return undefined;
  }

  /** A nonce's message, for `enforce_nonce` (Discord checks uniqueness "in the past few minutes"). */
  const nonces = new Map<string, { message: APIMessage; at: number }>();
  let nonceHits = 0;
  const NONCE_WINDOW_MS = 5 * 60_000;

  const edits: DiscordEdit[] = [];
  const reactions = new Map<string, string[]>();
  const edited = discordEditRoutes({ messages, botId: bot.id, checkContent, apiError }, edits, reactions);

  function createMessage(channelId: string, body: unknown): Answer {
    const channel = channels.get(channelId);
    if (channel === undefined) return apiError(404, 10003, 'Unknown Channel');
    if (!isRecord(body)) return apiError(400, 50109, 'The request body contains invalid JSON.');
    const invalid = checkContent(body);
    if (invalid !== undefined) return invalid;
    const nonce = typeof body.nonce === 'string' || typeof body.nonce === 'number' ? String(body.nonce) : undefined;
    if (nonce !== undefined && nonce.length > 25) {
      return fieldError('nonce', 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.');
    }
    if (nonce !== undefined && body.enforce_nonce === true) {
      const earlier = nonces.get(nonce);
      // the same author sent this nonce recently: that message is returned, no new one is created
      if (earlier !== undefined && Date.now() - earlier.at < NONCE_WINDOW_MS) {
        nonceHits += 1;
        return { status: 200, body: earlier.message };
      }
    }
    const reference = isRecord(body.message_reference) ? body.message_reference : undefined;
    const referenceId = typeof reference?.message_id === 'string' ? reference.message_id : undefined;
    const referenced = referenceId === undefined ? undefined : messages.get(referenceId)?.message;
    if (referenceId !== undefined && referenced === undefined && reference?.fail_if_not_exists !== false) {
      return fieldError('message_reference', 'MESSAGE_REFERENCE_UNKNOWN_MESSAGE', 'Unknown message');
    }
    const content = typeof body.content === 'string' ? body.content : '';
    const uploaded = uploadsOf(body);
    const attachments: APIAttachment[] = uploaded.map((file) => {
      const id = snowflake();
      return {
        id,
        filename: file.fileName,
        size: file.size,
        url: `https://cdn.discordapp.com/attachments/${channelId}/${id}/${file.fileName}`,
        proxy_url: `https://media.discordapp.net/attachments/${channelId}/${id}/${file.fileName}`,
        content_type: file.contentType,
      };
    });
    const components = Array.isArray(body.components) ? body.components : undefined;
    const message = botMessage(channelId, content, {
      ...(components === undefined ? {} : { components: components as APIMessage['components'] }),
      ...(attachments.length === 0 ? {} : { attachments }),
      ...(referenced === undefined
        ? {}
        : {
            type: 19,
            message_reference: { type: 0, message_id: referenced.id, channel_id: channelId },
            referenced_message: referenced,
          }),
    });
    if (nonce !== undefined) {
      message.nonce = nonce;
      nonces.set(nonce, { message, at: Date.now() });
    }
    store(message);
    record({
      id: message.id,
      channel_id: channelId,
      content,
      via: 'channel',
      ...(uploaded.length === 0
        ? {}
        : {
            files: uploaded.map(({ fileName, contentType, size, sha256 }) => ({ fileName, contentType, size, sha256 })),
          }),
      ...(components === undefined ? {} : { components }),
      ...(reference === undefined
        ? {}
        : {
            message_reference: {
              ...(referenceId === undefined ? {} : { message_id: referenceId }),
              ...(typeof reference.fail_if_not_exists === 'boolean'
                ? { fail_if_not_exists: reference.fail_if_not_exists }
                : {}),
            },
          }),
      body,
    });
    return { status: 200, body: message };
  }

  /** PATCH /channels/:id/messages/:id: only the bot's own messages; `components: []` removes the buttons. */
  function editMessage(channelId: string, messageId: string, body: unknown): Answer {
    const stored = messages.get(messageId)?.message;
    if (stored === undefined || stored.channel_id !== channelId) return apiError(404, 10008, 'Unknown Message');
    if (stored.author.id !== bot.id) return apiError(403, 50005, 'Cannot edit a message authored by another user');
    if (!isRecord(body)) return apiError(400, 50109, 'The request body contains invalid JSON.');
    const content = typeof body.content === 'string' ? body.content : stored.content;
    if ([...content].length > MAX_CONTENT_LENGTH) {
      return fieldError('content', 'BASE_TYPE_MAX_LENGTH', 'Must be 2000 or fewer in length.');
    }
    const components = Array.isArray(body.components)
      ? (body.components as APIMessage['components'])
      : stored.components;
    const edited: APIMessage = { ...stored, content, edited_timestamp: iso(), ...(components ? { components } : {}) };
    store(edited);
    const entry = sent.find((message) => message.id === messageId);
    if (entry !== undefined) {
      entry.content = content;
      entry.edits = [...(entry.edits ?? []), content];
      if (Array.isArray(body.components)) entry.components = body.components;
    }
    return { status: 200, body: edited };
  }

  function buttonPress(input: ButtonPressInput): FakeInteraction {
    const message = messages.get(input.messageId)?.message;
    if (message === undefined) throw new Error(`fake discord: no message ${input.messageId}`);
    const rows = (message.components ?? []) as unknown as { components?: { custom_id?: string }[] }[];
    const buttons = rows.flatMap((row) => row.components ?? []);
    if (!buttons.some((b) => b.custom_id === input.customId)) {
      throw new Error(`fake discord: message ${input.messageId} has no button ${input.customId}`);
    }
    const channel = channels.get(message.channel_id) ?? general;
    const user = apiUser(input.user ?? { id: '100000000000000001', name: 'Ada' });
    const dm = channel.type === 1;
    const id = snowflake();
    const token = `aW50ZXJhY3Rpb246${id}OmZha2U_fake-interaction-token`;
    const payload: Json = {
      id,
      application_id: applicationId,
      type: 3,
      data: { custom_id: input.customId, component_type: 2 },
      message,
      channel: dm ? { id: channel.id, type: 1, last_message_id: null, flags: 0 } : channel,
      channel_id: channel.id,
      token,
      version: 1,
      app_permissions: '2248473465835073',
      locale: 'en-US',
      entitlements: [],
      authorizing_integration_owners: { '0': guildId },
      context: dm ? 1 : 0,
      attachment_size_limit: 10_485_760,
      ...(dm
        ? { user }
        : { guild_id: guildId, guild_locale: 'en-US', member: { ...member(), user, permissions: '2248473465835073' } }),
    };
    const record: FakeInteraction = { id, token, channelId: channel.id, followupIds: [], payload };
    interactions.set(id, record);
    dispatch('INTERACTION_CREATE', payload);
    return record;
  }

  function byToken(app: string, token: string): FakeInteraction | undefined {
    if (app !== applicationId) return undefined;
    return [...interactions.values()].find((candidate) => candidate.token === token);
  }

  function interactionCallback(id: string, token: string, body: unknown): Answer {
    const found = interactions.get(id);
    if (found === undefined || found.token !== token) return apiError(404, 10062, 'Unknown interaction');
    if (found.responseType !== undefined) {
      return apiError(400, 40060, 'Interaction has already been acknowledged.');
    }
    if (!isRecord(body) || typeof body.type !== 'number') return fieldError('type', 'BASE_TYPE_REQUIRED', 'required');
    if (body.type === 4) {
      const data = isRecord(body.data) ? body.data : {};
      const invalid = checkContent(data);
      if (invalid !== undefined) return invalid;
      const message = botMessage(found.channelId, String(data.content ?? ''), { type: 20, webhook_id: applicationId });
      store(message);
      found.originalId = message.id;
      record({
        id: message.id,
        channel_id: found.channelId,
        content: message.content,
        via: 'interaction_original',
        interactionId: id,
        body: data,
      });
    } else if (body.type !== 5 && !(found.payload.type === 3 && (body.type === 6 || body.type === 7))) {
      return fieldError('type', 'BASE_TYPE_CHOICES', 'Value must be one of {4, 5, 6, 7, 8, 9, 10, 12}.');
    }
    found.responseType = body.type;
    return { status: 204 };
  }

  function editOriginal(found: FakeInteraction | undefined, body: unknown): Answer {
    if (found === undefined || found.responseType === undefined) return apiError(404, 10015, 'Unknown Webhook');
    if (!isRecord(body)) return apiError(400, 50109, 'The request body contains invalid JSON.');
    const invalid = checkContent(body);
    if (invalid !== undefined) return invalid;
    const content = typeof body.content === 'string' ? body.content : '';
    const earlier = found.originalId === undefined ? undefined : messages.get(found.originalId)?.message;
    if (earlier !== undefined) {
      const edited = { ...earlier, content, edited_timestamp: iso() };
      store(edited);
      const entry = sent.find((message) => message.id === earlier.id);
      if (entry !== undefined) entry.content = content;
      return { status: 200, body: edited };
    }
    const message = botMessage(found.channelId, content, { type: 20, webhook_id: applicationId });
    store(message);
    found.originalId = message.id;
    record({
      id: message.id,
      channel_id: found.channelId,
      content,
      via: 'interaction_original',
      interactionId: found.id,
      body,
    });
    return { status: 200, body: message };
  }

  function followup(found: FakeInteraction | undefined, body: unknown): Answer {
    if (found === undefined || found.responseType === undefined) return apiError(404, 10015, 'Unknown Webhook');
    if (!isRecord(body)) return apiError(400, 50109, 'The request body contains invalid JSON.');
    const invalid = checkContent(body);
    if (invalid !== undefined) return invalid;
    const content = typeof body.content === 'string' ? body.content : '';
    const message = botMessage(found.channelId, content, { type: 0, webhook_id: applicationId });
    store(message);
    found.followupIds.push(message.id);
    record({
      id: message.id,
      channel_id: found.channelId,
      content,
      via: 'interaction_followup',
      interactionId: found.id,
      body,
    });
    return { status: 200, body: message };
  }

  function bulkOverwrite(app: string, body: unknown): Answer {
    if (app !== applicationId) return apiError(403, 50001, 'Missing Access');
    if (!Array.isArray(body)) return apiError(400, 50035, 'Invalid Form Body');
    const written: Json[] = [];
    for (const [index, command] of body.entries()) {
      if (!isRecord(command)) return apiError(400, 50035, 'Invalid Form Body');
      const name = typeof command.name === 'string' ? command.name : '';
      const description = typeof command.description === 'string' ? command.description : '';
      if (!/^[-_\p{Ll}\p{Lo}\p{N}]{1,32}$/u.test(name)) {
        return fieldError(`${index}.name`, 'APPLICATION_COMMAND_INVALID_NAME', 'Command name is invalid');
      }
      if (description.length < 1 || description.length > 100) {
        return fieldError(`${index}.description`, 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
      }
      written.push({
        ...command,
        id: snowflake(),
        application_id: app,
        version: snowflake(),
        default_permission: true,
      });
    }
    const names = written.map((command) => command.name);
    if (new Set(names).size !== names.length) {
      return apiError(400, 50035, 'Invalid Form Body', {
        _errors: [{ code: 'APPLICATION_COMMANDS_DUPLICATE_NAME', message: 'Application command names must be unique' }],
      });
    }
    commands = written;
    return { status: 200, body: written };
  }

  function gatewayBot(): Answer {
    return {
      status: 200,
      body: {
        url: `ws://127.0.0.1:${port}`,
        shards: 1,
        session_start_limit: { total: 1000, remaining: 999, reset_after: 14_400_000, max_concurrency: 1 },
      },
    };
  }

  function routeOf(method: string, path: string): { route: FakeRoute | 'other'; params: string[] } {
    const table: [string, RegExp, FakeRoute | 'other'][] = [
      ['GET', /^\/gateway\/bot$/, 'gatewayBot'],
      ['GET', /^\/users\/@me$/, 'other'],
      ['GET', /^\/channels\/(\d+)$/, 'getChannel'],
      ['GET', /^\/channels\/(\d+)\/messages$/, 'listMessages'],
      ['POST', /^\/channels\/(\d+)\/messages$/, 'createMessage'],
      ['POST', /^\/channels\/(\d+)\/typing$/, 'typing'],
      ['PUT', /^\/applications\/(\d+)\/commands$/, 'bulkOverwriteCommands'],
      ['POST', /^\/interactions\/(\d+)\/([^/]+)\/callback$/, 'interactionCallback'],
      ['PATCH', /^\/webhooks\/(\d+)\/([^/]+)\/messages\/@original$/, 'editOriginal'],
      ['PATCH', /^\/channels\/(\d+)\/messages\/(\d+)$/, 'editMessage'],
      ['POST', /^\/webhooks\/(\d+)\/([^/]+)$/, 'followup'],
      ['PUT', /^\/channels\/(\d+)\/messages\/(\d+)\/reactions\/([^/]+)\/@me$/, 'addReaction'],
      ['DELETE', /^\/channels\/(\d+)\/messages\/(\d+)\/reactions\/([^/]+)\/@me$/, 'removeReaction'],
    ];
    for (const [verb, pattern, route] of table) {
      const match = verb === method ? pattern.exec(path) : null;
      if (match !== null) return { route, params: match.slice(1).map(decodeURIComponent) };
    }
    return { route: 'other', params: [] };
  }

  const NEEDS_NO_AUTH = new Set<FakeRoute | 'other'>(['interactionCallback', 'editOriginal', 'followup']);

  /**
   * GET /channels/:id/messages: `after` (the oldest `limit` messages after it) or the newest
   * `limit`; newest first, as Discord answers; REST messages carry no guild_id or member.
   */
  function listMessages(channelId: string, query: URLSearchParams): Answer {
    if (!channels.has(channelId)) return apiError(404, 10003, 'Unknown Channel');
    const limit = Number(query.get('limit') ?? 50);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
      return fieldError('limit', 'NUMBER_TYPE_MAX', 'int value should be less than or equal to 100.');
    }
    const byId = (a: APIMessage, b: APIMessage): number => (BigInt(a.id) < BigInt(b.id) ? -1 : 1);
    const inChannel = [...messages.values()].map((m) => m.message).filter((m) => m.channel_id === channelId);
    inChannel.sort(byId);
    const after = query.get('after');
    const picked =
      after === null ? inChannel.slice(-limit) : inChannel.filter((m) => BigInt(m.id) > BigInt(after)).slice(0, limit);
    return { status: 200, body: picked.reverse() };
  }

  function answerRoute(
    route: FakeRoute | 'other',
    params: string[],
    path: string,
    body: unknown,
    query: URLSearchParams = new URLSearchParams(),
  ): Answer {
    const [first = '', second = '', third = ''] = params;
    switch (route) {
      case 'editMessage': {
        // checked and recorded as an edit (discord-edits.ts); then the message shows it, components too
        const answer = edited.editMessage(first, second, body);
        return answer.status === 200 ? editMessage(first, second, body) : answer;
      }
      case 'addReaction':
        return edited.addReaction(first, second, third);
      case 'removeReaction':
        return edited.removeReaction(first, second, third);
      case 'gatewayBot':
        return gatewayBot();
      case 'getChannel': {
        const channel = channels.get(first);
        return channel === undefined ? apiError(404, 10003, 'Unknown Channel') : { status: 200, body: channel };
      }
      case 'listMessages':
        return listMessages(first, query);
      case 'createMessage':
        return createMessage(first, body);
      case 'typing':
        return channels.has(first) ? { status: 204 } : apiError(404, 10003, 'Unknown Channel');
      case 'bulkOverwriteCommands':
        return bulkOverwrite(first, body);
      case 'interactionCallback':
        return interactionCallback(first, second, body);
      case 'editOriginal':
        return editOriginal(byToken(first, second), body);
      case 'followup':
        return followup(byToken(first, second), body);
      default:
        return path === '/users/@me' ? { status: 200, body: bot } : apiError(404, 0, '404: Not Found');
    }
  }

  function write(res: ServerResponse, answer: Answer): void {
    if (res.writableEnded || res.destroyed) return;
    if (answer.body === undefined) {
      res.writeHead(answer.status, answer.headers ?? {});
      res.end();
      return;
    }
    const text = JSON.stringify(answer.body);
    res.writeHead(answer.status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
      ...answer.headers,
    });
    res.end(text);
  }

  function serveFile(path: string, res: ServerResponse): void {
    const id = /^\/(?:media\/)?attachments\/\d+\/(\d+)\//.exec(path)?.[1];
    const call: RecordedCall = { method: 'GET', path, route: 'attachment', body: undefined, status: 0, at: now() };
    calls.push(call);
    wake();
    const failure = failures.get('attachment')?.shift();
    if (failure !== undefined && 'network' in failure) {
      res.socket?.destroy();
      return;
    }
    const answer = failure !== undefined ? failureAnswer(failure) : undefined;
    const file = id === undefined ? undefined : files.get(id);
    if (answer !== undefined || file === undefined) {
      call.status = answer?.status ?? 404;
      res.writeHead(call.status, { 'content-type': 'text/plain' });
      res.end('Not Found');
      return;
    }
    call.status = 200;
    res.writeHead(200, { 'content-type': file.contentType, 'content-length': file.data.length });
    res.end(file.data);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://fake');
    if (/^\/(?:media\/)?attachments\//.test(url.pathname)) {
      serveFile(url.pathname, res);
      return;
    }
    // clients may percent-encode path segments (discord.js sends `%40original`)
    const pathname = url.pathname.split('/').map(decodeURIComponent).join('/');
    const versioned = /^\/api\/v10(\/.*)$/.exec(pathname)?.[1];
    const method = req.method ?? 'GET';
    if (versioned === undefined) {
      write(res, apiError(404, 0, '404: Not Found'));
      return;
    }
    let body: unknown;
    let malformed = false;
    try {
      body = parseJsonBody(req, raw);
    } catch {
      malformed = true;
    }
    const { route, params } = routeOf(method, versioned);
    const call: RecordedCall = { method, path: versioned, route, body, status: 0, at: now() };
    calls.push(call);
    const reply = (answer: Answer): void => {
      call.status = answer.status;
      write(res, answer);
      wake();
    };
    if (!NEEDS_NO_AUTH.has(route) && req.headers.authorization !== `Bot ${options.token}`) {
      reply(apiError(401, 0, '401: Unauthorized'));
      return;
    }
    if (malformed) {
      reply(apiError(400, 50109, 'The request body contains invalid JSON.'));
      return;
    }
    const failure = route === 'other' ? undefined : failures.get(route)?.shift();
    if (failure !== undefined) {
      if ('network' in failure) {
        call.status = 0;
        wake();
        res.socket?.destroy();
        return;
      }
      reply(failureAnswer(failure));
      return;
    }
    reply(answerRoute(route, params, versioned, body, url.searchParams));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // a bug in the fake itself: make it loud in the test that hit it
      const message = error instanceof Error ? error.message : String(error);
      if (!res.headersSent) write(res, apiError(500, 0, `fake: internal error: ${message}`));
      else res.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('upgrade', (req, socket, head) => {
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;

  const open = (): Connection[] => connections.filter((c) => c.ws.readyState === WebSocket.OPEN);

  function until(check: () => boolean, timeoutMs = 5_000, what = 'condition'): Promise<void> {
    if (check()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        wakers.delete(waker);
        reject(new Error(`fake discord: ${what} not met within ${timeoutMs} ms`));
      }, timeoutMs);
      const waker = (): void => {
        if (!check()) return;
        clearTimeout(timer);
        wakers.delete(waker);
        resolve();
      };
      wakers.add(waker);
    });
  }

  function queueFailure(route: FakeRoute, failure: FakeFailure): void {
    const list = failures.get(route) ?? [];
    list.push(failure);
    failures.set(route, list);
  }

  return {
    apiBase: `http://127.0.0.1:${port}/api`,
    gatewayUrl: `ws://127.0.0.1:${port}`,
    token: options.token,
    bot,
    applicationId,
    guildId,
    botRoleId,
    get textChannelIds() {
      return textChannels.map((channel) => channel.id);
    },
    threadId: thread.id,
    sent,
    edits,
    reactionsOn: (messageId) => [...(reactions.get(messageId) ?? [])],
    get nonceHits() {
      return nonceHits;
    },
    calls,
    ops,
    commands: () => commands,
    interactions: () => [...interactions.values()],
    connectionCount: () => connections.length,
    openConnections: () => open().length,
    connectionPaths: () => connections.map((c) => c.path),
    latestReady() {
      const latest = connections.at(-1);
      return latest?.ready === true && latest.ws.readyState === WebSocket.OPEN;
    },
    dmChannelId: (user) => dmChannelFor(user).id,
    addTextChannel(name) {
      const channel = textChannel(name ?? `channel-${textChannels.length}`, textChannels.length);
      textChannels.push(channel);
      channels.set(channel.id, channel);
      dispatch('CHANNEL_CREATE', channel);
      return channel.id;
    },
    addThread(options = {}) {
      const created = publicThread(`thread-${channels.size}`);
      channels.set(created.id, created);
      if (options.announce !== false) dispatch('THREAD_CREATE', { ...created, newly_created: true });
      return created.id;
    },
    dispatch,
    sendRaw(text) {
      for (const connection of open()) connection.ws.send(text);
    },
    guildMessage: (input) => {
      const channel = channels.get(input.channelId ?? general.id) ?? general;
      return userMessage(channel, input, true, channel.type);
    },
    threadMessage: (input) => userMessage(thread, input, true, 11),
    dmMessage: (input) => {
      const user = input.user ?? { id: '100000000000000001', name: 'Ada' };
      return userMessage(dmChannelFor(user), { ...input, user }, false, 1);
    },
    interaction,
    buttonPress,
    failNext: queueFailure,
    rateLimitNextSends(count, retryAfterMs) {
      for (let i = 0; i < count; i++) queueFailure('createMessage', { status: 429, retryAfterMs });
    },
    invalidateSessions() {
      invalidateNextResume = true;
    },
    refuseNextIdentify(code) {
      refusedIdentifies.push(code);
    },
    async dropConnections(code = 4000) {
      const live = open();
      const closed = live.map((c) => new Promise<void>((resolve) => c.ws.once('close', () => resolve())));
      for (const connection of live) {
        if (code === 1006) connection.ws.terminate();
        else connection.ws.close(code, 'fake: connection dropped');
      }
      await Promise.all(closed);
    },
    onSend(listener) {
      sendListeners.add(listener);
      return () => sendListeners.delete(listener);
    },
    until,
    reset() {
      sent.length = 0;
      edits.length = 0;
      reactions.clear();
      nonces.clear();
      nonceHits = 0;
      calls.length = 0;
      ops.length = 0;
      failures.clear();
      interactions.clear();
      files.clear();
      commands = undefined;
      invalidateNextResume = false;
      refusedIdentifies.length = 0;
    },
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        for (const connection of connections) connection.ws.terminate();
        wss.close();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      });
      return closing;
    },
  };
}
