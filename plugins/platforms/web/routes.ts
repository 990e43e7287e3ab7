/**
 * The web chat's API routes: `GET /chat/api/session` (the browser's identity and CSRF token; sets
 * the browser id cookie), `GET /chat/api/stream` (Server-Sent Events: `message` and `edit`) and
 * `POST /chat/api/messages` (JSON or multipart, into the pipeline like any platform's message).
 */
import { randomUUID } from 'node:crypto';
import { textOrMediaEvent } from '@hermes/plugin-sdk';
import type { InboundSink, Logger, RouteRequest, RouteResponse } from '@hermes/protocol';
import type { ChatStreams } from './chat-streams.js';
import { type ChatIdentities, type ChatIdentity, csrfPasses, header } from './identity.js';
import { type BodyLimits, parseMessageBody } from './message-body.js';

export const PLATFORM = 'web';

export interface ChatRoutesDeps {
  identities: ChatIdentities;
  streams: ChatStreams;
  /** the running adapter's sink; null before start() and after stop() (answered 503) */
  sink: () => InboundSink | null;
  limits: BodyLimits;
  logger: Logger;
  now: () => number;
}

type Route = (request: RouteRequest) => Promise<RouteResponse>;

const NO_STORE = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };
const NOT_READY: RouteResponse = { status: 503, body: { error: 'the web chat is not running' }, headers: NO_STORE };

const withCookie = (identity: ChatIdentity, headers: Record<string, string>): Record<string, string> =>
  identity.setCookie === undefined ? headers : { ...headers, 'set-cookie': identity.setCookie };

/** A Last-Event-ID (header, or `lastEventId` in the query for a page that reloads) as a number. */
function lastEventId(request: RouteRequest): number | undefined {
  const value = header(request, 'last-event-id') ?? request.query?.lastEventId;
  if (value === undefined || !/^\d{1,17}$/.test(value)) return undefined;
  return Number(value);
}

export function sessionRoute(deps: ChatRoutesDeps): Route {
  return async (request) => {
    const identity = deps.identities.identify(request, true) as ChatIdentity;
    return {
      status: 200,
      headers: withCookie(identity, NO_STORE),
      body: { userId: identity.userId, operator: identity.operator, csrf: identity.csrf },
    };
  };
}

export function streamRoute(deps: ChatRoutesDeps): Route {
  return async (request) => {
    if (deps.sink() === null) return NOT_READY;
    const identity = deps.identities.identify(request, true) as ChatIdentity;
    const signal = request.signal ?? new AbortController().signal;
    return {
      status: 200,
      headers: withCookie(identity, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-store',
        'x-accel-buffering': 'no',
      }),
      stream: deps.streams.open(identity.chatId, lastEventId(request), signal),
    };
  };
}

export function messagesRoute(deps: ChatRoutesDeps): Route {
  return async (request) => {
    const identity = deps.identities.identify(request, false);
    if (identity === null || !csrfPasses(request, identity)) {
      deps.logger.warn(
        { cookie: identity !== null },
        'web: a chat message without a valid browser cookie, CSRF header or same-origin Origin refused',
      );
      return { status: 403, body: { error: 'csrf' }, headers: NO_STORE };
    }
    const sink = deps.sink();
    if (sink === null) return NOT_READY;
    const parsed = await parseMessageBody(request, deps.limits, identity.userId);
    if (!parsed.ok) return { status: parsed.status, body: { error: parsed.error }, headers: NO_STORE };
    const messageId = randomUUID();
    const event = textOrMediaEvent(
      {
        platform: PLATFORM,
        messageId,
        source: {
          platform: PLATFORM,
          chatId: identity.chatId,
          chatType: 'dm',
          userId: identity.userId,
          userName: identity.userName,
        },
        internal: false,
        receivedAt: deps.now(),
        raw: { text: parsed.text, ...(parsed.attachment ? { file: parsed.attachment.fileName } : {}) },
        text: parsed.text,
      },
      parsed.attachment === undefined ? [] : [parsed.attachment],
    );
    await sink.accept(event);
    return { status: 202, body: { ok: true, messageId }, headers: NO_STORE };
  };
}
