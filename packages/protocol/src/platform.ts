/**
 * The platform adapter contract. Adapters translate and nothing more: SDK event in, MessageEvent
 * out (raw payload kept); OutboundMessage in, SDK calls out, a typed SendResult back.
 */
import type { ActionPress, ActionPressResult, ButtonMessage } from './action-buttons.js';
import type { ApprovalPress, ApprovalPressResult, ApprovalPromptMessage } from './approval-prompt.js';
import type { Logger } from './logger.js';
import type { MessageEvent } from './message-event.js';

/** A send rate: `count` messages per `perMs`, with up to `burst` (default `count`) sent back to back. */
export interface SendRate {
  count: number;
  perMs: number;
  burst?: number;
}

/** The platform's published send limits; delivery waits (never drops) to stay within them. */
export interface SendRateLimits {
  /** per chat (Discord: per channel) */
  perChat?: SendRate;
  /** every chat of the bot together */
  global?: SendRate;
}

export interface PlatformCapabilities {
  /** the longest text one message may carry, in characters */
  maxMessageLength: number;
  /** what `format()` produces */
  formatting: 'html' | 'markdown' | 'mrkdwn' | 'plain';
  editing: boolean;
  typing: boolean;
  threads: boolean;
  /** `react()` can put an emoji reaction on a user's message (display.reactions) */
  reactions?: boolean;
  /** send limits delivery keeps to (absent: no limit) */
  sendRate?: SendRateLimits;
  /** files the adapter's `sendMedia` uploads (absent: the platform takes no files) */
  media?: MediaCapabilities;
}

/** What a platform accepts as an uploaded file. */
export interface MediaCapabilities {
  /** the largest file one upload may carry, in bytes */
  maxUploadBytes: number;
  /** the largest image sent as a photo / inline image; a bigger one goes as a document */
  maxPhotoBytes?: number;
}

/**
 * One file to upload as a native attachment (`PlatformAdapter.sendMedia`). The gateway has checked
 * it (a regular file, not a secret under HERMES_HOME, within the size caps) before the adapter sees it.
 */
export interface OutboundMedia {
  chatId: string;
  threadId?: string;
  /** the `messageId` of the MessageEvent answered, as the adapter made it (the adapter finds its platform's own id in it) */
  replyToMessageId?: string;
  /** absolute path of the file (symlinks resolved) */
  path: string;
  /** the name shown on the platform */
  fileName: string;
  mimeType: string;
  /**
   * `image`: a photo / inline image where the platform has them; `voice`: a voice note where the
   * platform has them (an Ogg Opus `.opus` file: Telegram `sendVoice`), else a file; `document`: a file
   */
  kind: 'image' | 'document' | 'voice';
  /** the file's size in bytes */
  size: number;
  /** as for `OutboundMessage.idempotencyKey` */
  idempotencyKey?: string;
  /** as for `OutboundMessage.mayRepeat` */
  mayRepeat?: boolean;
}

export interface OutboundMessage {
  chatId: string;
  threadId?: string;
  /** already formatted for the platform when `formatted` is true, else plain text */
  text: string;
  formatted: boolean;
  /** the `messageId` of the MessageEvent answered, as the adapter made it (the adapter finds its platform's own id in it) */
  replyToMessageId?: string;
  /**
   * The same for every try of this message, across restarts (at most 25 characters). An adapter
   * whose platform can refuse a repeat passes it on (Discord: `nonce` with `enforce_nonce`), so a
   * send repeated after a crash, or after a 5xx the platform answered having posted, posts once.
   */
  idempotencyKey?: string;
  /**
   * True when this message may have been posted already: a try after a restart (the process may
   * have died after the platform took it), or after an error the platform may have posted despite
   * (a 5xx, no answer). An adapter that can look its own posts up by `idempotencyKey` (Slack) does
   * so first and reports the earlier post instead of posting again.
   */
  mayRepeat?: boolean;
}

/** A new text for a message the bot sent earlier (streamed answers: Telegram editMessageText, ...). */
export interface EditMessage {
  chatId: string;
  threadId?: string;
  /** the id `send()` reported for the message (`SendResult.messageIds[0]`) */
  messageId: string;
  /** already formatted for the platform when `formatted` is true, else plain text */
  text: string;
  formatted: boolean;
}

/** An emoji reaction on a user's message (display.reactions: 👀 working, ✅ answered, ❌ failed). */
export interface Reaction {
  chatId: string;
  threadId?: string;
  /** the inbound event's `messageId` */
  messageId: string;
  emoji: string;
  /** the bot's earlier reaction this one replaces (removed where the platform keeps several) */
  replaces?: string;
}

export type SendErrorKind = 'too_long' | 'bad_format' | 'forbidden' | 'not_found' | 'rate_limited' | 'transient';

export type SendResult =
  | { ok: true; messageIds: string[] }
  | {
      ok: false;
      error: SendErrorKind;
      message: string;
      retryAfterMs?: number;
      /** the HTTP status the platform answered a transient failure with; absent when no answer came (timeout, reset) */
      status?: number;
    };

export type PlatformConnection = 'connecting' | 'connected' | 'disconnected' | 'error' | 'stopped';

export interface PlatformState {
  state: PlatformConnection;
  since: number;
  error?: string;
}

/**
 * Where an adapter hands inbound events; resolves once the event is safely accepted (persisted).
 * `state` (e.g. the next update offset) is written in the same transaction as the dedupe key, so
 * an offset never moves past a message that was not accepted.
 */
export interface InboundSink {
  accept(event: MessageEvent, options?: { state?: Record<string, string> }): Promise<void>;
  /**
   * A press of an approval button (`askApproval`'s buttons): the gateway resolves the waiting turn
   * when the presser is the user it asked; the result's text is shown to the presser.
   */
  approvalPress?(press: ApprovalPress): Promise<ApprovalPressResult>;
  /** A press of an action button (`sendButtons`' buttons): the gateway checks who pressed and acts. */
  actionPress?(press: ActionPress): Promise<ActionPressResult>;
}

/** A plain HTTP route on the gateway's own server (for webhooks), free of any framework type. */
export interface RouteRequest {
  headers: Record<string, string | string[] | undefined>;
  /** the parsed JSON or form body; for a `multipart` route's multipart/form-data request, its bytes (a Buffer) */
  body: unknown;
  rawBody: string;
  /** the query string's parameters (first value of each) */
  query?: Readonly<Record<string, string>>;
  /** aborted when the client closes the connection (a `stream` response's end) */
  signal?: AbortSignal;
  /**
   * A `browser` route's request: who the gateway's console session says it is (its cookie), null
   * when not signed in (a visitor) or when the gateway serves no console.
   */
  console?: WebIdentity | null;
}

export interface RouteResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** a streamed body (Server-Sent Events): written as it comes until it ends or the client leaves; `body` is ignored */
  stream?: AsyncIterable<string | Uint8Array>;
}

export interface RouteOptions {
  /** checks a request's headers before its body is read: null lets it through, a response refuses it */
  verify?: (request: { headers: RouteRequest['headers'] }) => RouteResponse | null;
  /**
   * A page's route, called by a browser: the server's Host check applies (421 for a Host it does not
   * serve) and an `Origin` must be the request's own (403), the API key does not; the request says
   * its console session (`RouteRequest.console`); the route checks its CSRF header itself.
   */
  browser?: boolean;
  /** accepts multipart/form-data bodies (handed over unparsed as a Buffer in `body`) */
  multipart?: boolean;
  /** the largest body accepted, in bytes (default 4 MiB); a larger one is answered 413 unread */
  bodyLimit?: number;
}

/** Who a browser request comes from, as the gateway's console session says (`RouteRequest.console`). */
export interface WebIdentity {
  /** `console:<actor>` for a logged-in console session */
  userId: string;
  /** true: an operator the pipeline admits without pairing */
  approved: boolean;
  /** the session's CSRF token: a POST must carry it in `x-hermes-csrf` (absent: the route's own token) */
  csrf?: string;
}

/** The gateway's rule for storing a sender's files (PlatformContext.downloads). */
export interface DownloadGate {
  admit(userId: string, reportedBytes: number | undefined): Promise<string | null>;
  record(userId: string, bytes: number): void;
}

export interface PlatformContext {
  /** `gateway.platforms.<name>` from config.yaml (unchecked; the factory's `readSettings` checks it) */
  settings: PlatformSettings;
  env: PlatformEnv;
  logger: Logger;
  /** folder for downloaded attachments */
  cacheDir: string;
  /** media.max_bytes: a file the platform reports as larger is not downloaded (absent: no cap) */
  mediaMaxBytes?: number;
  /**
   * Whether a sender's files may be stored (absent: always): nothing is downloaded or stored for a
   * stranger (not allowlisted, not paired), and each user has a daily upload quota. `admit` answers
   * null to go on, else the reason (the file is delivered with `path: null` and `refused`);
   * `record` counts the bytes stored.
   */
  downloads?: DownloadGate;
  /**
   * persisted key/value state of this platform (update offsets, ...); `delete` removes a key (nothing
   * when absent), e.g. one the adapter no longer keeps. A value that must commit with an event goes
   * with `sink.accept(event, { state })` instead.
   */
  state: { get(key: string): string | undefined; set(key: string, value: string): void; delete(key: string): void };
  /** the gateway's commands (built-in and plugin), e.g. for native slash-command registration */
  commands(): readonly { name: string; description: string }[];
  /**
   * Adds a route to the gateway's HTTP server; only while `create()` runs (the server takes its
   * routes before it listens; an adapter loaded later declares its routes at creation, see
   * `PlatformFactory.create`). Such a route skips the server's Host and API-key checks: it verifies
   * its own requests. `verify` runs on the headers before the body is read; a response from it
   * refuses the request (the body unread).
   */
  route(
    method: 'GET' | 'POST',
    path: string,
    handler: (request: RouteRequest) => Promise<RouteResponse>,
    options?: RouteOptions,
  ): void;
}

export interface PlatformAdapter {
  readonly name: string;
  readonly capabilities: PlatformCapabilities;
  /**
   * true when the adapter holds the one connection a bot may have (long polling, a gateway
   * WebSocket, Socket Mode): gateway instances sharing a database take turns through a lease
   * (docs/scaling.md). Absent or false: every instance runs it (webhooks behind a load balancer).
   */
  readonly holdsConnection?: boolean;
  /** connects and starts delivering events to `sink`; resolves when connected (or failed) */
  start(sink: InboundSink): Promise<void>;
  /** disconnects; no event is delivered after it resolves */
  stop(): Promise<void>;
  send(message: OutboundMessage): Promise<SendResult>;
  /** uploads one file as a native attachment (declared by `capabilities.media`); never throws */
  sendMedia?(media: OutboundMedia): Promise<SendResult>;
  sendTyping?(chatId: string, threadId?: string): Promise<void>;
  /** Shows an approval prompt with native buttons (once / this session / always / deny); presses go to `sink.approvalPress`. */
  askApproval?(prompt: ApprovalPromptMessage): Promise<SendResult>;
  /** Posts a plain-text message with a row of action buttons; presses go to `sink.actionPress`. */
  sendButtons?(message: ButtonMessage): Promise<SendResult>;
  /** Replaces an answered or expired prompt's text and removes its buttons. */
  closeApproval?(chatId: string, messageId: string, text: string): Promise<void>;
  /**
   * Replaces the text of a message the bot sent (streamed answers); a text equal to the current
   * one is ok. Present when `capabilities.editing` is true.
   */
  edit?(message: EditMessage): Promise<SendResult>;
  /** Sets the bot's reaction on a user's message; present when `capabilities.reactions` is true. */
  react?(reaction: Reaction): Promise<SendResult>;
  /** Markdown from the model to the platform's format */
  format(markdown: string): string;
  status(): PlatformState;
}

/** `gateway.platforms.<name>` from config.yaml, as read (unchecked). */
export type PlatformSettings = Readonly<Record<string, unknown>>;

/** The process environment a platform reads its credentials from. */
export type PlatformEnv = Readonly<Record<string, string | undefined>>;

/**
 * A platform's adapter factory. `S` is the platform's checked settings: `readSettings` turns the
 * raw `gateway.platforms.<name>` block (and the environment) into them, throwing a TypeError that
 * names the bad key, so a wrong setting is caught without connecting.
 */
export interface PlatformFactory<S = unknown> {
  name: string;
  /** true when the credentials this platform needs are present */
  hasCredentials(env: PlatformEnv): boolean;
  /**
   * The credential that must have one user on the machine (e.g. the bot token a poller uses): two
   * gateways with the same key would steal each other's updates or answer twice.
   */
  instanceKey?(env: PlatformEnv): string | undefined;
  /** reads and checks the settings; throws a TypeError naming the bad key */
  readSettings?(settings: PlatformSettings, env: PlatformEnv): S;
  /**
   * Creates the adapter: checks the settings (a TypeError naming the bad key) and adds its routes;
   * nothing touches the network before `start()`. The gateway creates its adapters before its
   * server listens and starts them once `/health` answers, so what only `start()` needs (a
   * platform SDK) should be loaded there: `lazyAdapter` of @hermes/plugin-sdk wraps an adapter
   * module imported on start, with its name, capabilities, formatter and routes known before.
   */
  create(context: PlatformContext): PlatformAdapter;
}

/** What a platform plugin registers with `ctx.registerPlatform`. */
export interface PlatformRegistration<S = unknown> {
  /** the platform's name (`telegram`); the same as `factory.name` */
  name: string;
  /** what the platform's adapter can do, known before one is created */
  capabilities: PlatformCapabilities;
  factory: PlatformFactory<S>;
}

/** A registration typed from its factory's settings: `definePlatform({ name, capabilities, factory })`. */
export function definePlatform<S>(registration: PlatformRegistration<S>): PlatformRegistration<S> {
  return registration;
}
