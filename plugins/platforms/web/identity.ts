/**
 * Who a web chat request comes from. Every browser gets a browser id in the `hermes_web` cookie
 * (HttpOnly, SameSite=Strict, Path=/): it is the chat id (the session key `web:<browser id>:dm`).
 * A browser signed in to the console is that operator (`console:<actor>`, admitted without pairing,
 * with the console session's CSRF token), as the gateway says in `RouteRequest.console`; any other
 * is a visitor, a stranger to the pipeline (its user id is its browser id), whose CSRF token
 * is an HMAC of its browser id under a key kept in the platform's state.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { PlatformContext, RouteRequest } from '@hermes/protocol';

export const BROWSER_COOKIE = 'hermes_web';
export const CSRF_HEADER = 'x-hermes-csrf';
const BROWSER_ID = /^[A-Za-z0-9_-]{16,64}$/;
const COOKIE_MAX_AGE_S = 400 * 24 * 3600;

export interface ChatIdentity {
  /** the browser id: the chat */
  chatId: string;
  userId: string;
  userName: string;
  /** signed in to the console */
  operator: boolean;
  /** what a POST must carry in `x-hermes-csrf` */
  csrf: string;
  /** a new browser id's cookie, to send with the answer */
  setCookie?: string;
}

/** The seam the routes use: swap it for another session source without touching them. */
export interface ChatIdentities {
  /** the request's identity; a browser without a (valid) cookie gets a new id when `create`, else null */
  identify(request: Pick<RouteRequest, 'headers' | 'console'>, create: boolean): ChatIdentity | null;
}

export function header(request: Pick<RouteRequest, 'headers'>, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The value of one cookie of the request's `Cookie` header. */
export function cookieValue(request: Pick<RouteRequest, 'headers'>, name: string): string | undefined {
  for (const part of (header(request, 'cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

const overHttps = (request: Pick<RouteRequest, 'headers'>): boolean =>
  header(request, 'x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase() === 'https';

/** The platform state key of the CSRF key (created on first use, kept across restarts). */
const KEY_STATE = 'csrf_key';

function csrfKey(state: PlatformContext['state']): Buffer {
  let key = state.get(KEY_STATE);
  if (key === undefined) {
    key = randomBytes(32).toString('base64url');
    state.set(KEY_STATE, key);
  }
  return Buffer.from(key, 'base64url');
}

/** The identities of a gateway: its console's sessions when it has one, else visitors only. */
export function createChatIdentities(
  context: Pick<PlatformContext, 'state'>,
  newId: () => string = () => randomBytes(18).toString('base64url'),
): ChatIdentities {
  let key: Buffer | undefined;
  const visitorCsrf = (browserId: string): string => {
    key ??= csrfKey(context.state);
    return createHmac('sha256', key).update(`csrf:${browserId}`).digest('base64url');
  };
  return {
    identify(request, create) {
      const cookie = cookieValue(request, BROWSER_COOKIE);
      let chatId = cookie !== undefined && BROWSER_ID.test(cookie) ? cookie : undefined;
      let setCookie: string | undefined;
      if (chatId === undefined) {
        if (!create) return null;
        chatId = newId();
        setCookie = `${BROWSER_COOKIE}=${chatId}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${COOKIE_MAX_AGE_S}${overHttps(request) ? '; Secure' : ''}`;
      }
      const session = request.console ?? null;
      const identity: ChatIdentity =
        session?.approved === true
          ? {
              chatId,
              userId: session.userId,
              userName: session.userId,
              operator: true,
              csrf: session.csrf ?? visitorCsrf(chatId),
            }
          : {
              chatId,
              userId: chatId,
              userName: `web visitor ${chatId.slice(0, 6)}`,
              operator: false,
              csrf: visitorCsrf(chatId),
            };
      return setCookie === undefined ? identity : { ...identity, setCookie };
    },
  };
}

/**
 * A state-changing request's checks: the `x-hermes-csrf` header equals the identity's token, and an
 * `Origin` header, when sent, is the request's own origin (its `Host`). False: answer 403.
 */
export function csrfPasses(request: Pick<RouteRequest, 'headers'>, identity: ChatIdentity): boolean {
  const origin = header(request, 'origin');
  if (origin !== undefined) {
    let host: string;
    try {
      host = new URL(origin).host;
    } catch {
      return false;
    }
    if (host.toLowerCase() !== (header(request, 'host') ?? '').toLowerCase()) return false;
  }
  const given = Buffer.from(header(request, CSRF_HEADER) ?? '');
  const expected = Buffer.from(identity.csrf);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
