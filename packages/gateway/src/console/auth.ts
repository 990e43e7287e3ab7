/**
 * Who is asking: the console session of a request (its `hermes_console` cookie), the login check
 * (the configured token or API_SERVER_KEY, compared in constant time), and the CSRF check every
 * console and web chat POST passes. The web chat (`web` platform) uses `consoleSession` and
 * `checkCsrf` too: their signatures are stable.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ConsoleSessionRecord, ConsoleSessionStore, SESSION_COOKIE, SESSION_TTL_MS } from './session-store.js';

export const CSRF_HEADER = 'x-hermes-csrf';
const DECORATION = 'hermesConsole';

export interface ConsoleAuthOptions {
  /** true on a non-loopback host, or when a token (gateway.console.token, API_SERVER_KEY) is set */
  loginRequired: boolean;
  /** the secrets a login accepts (empty values ignored) */
  tokens: readonly (string | undefined)[];
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** The console's auth state, one per server (a Fastify decoration, so encapsulated plugins see it too). */
export class ConsoleAuth {
  readonly sessions = new ConsoleSessionStore();
  readonly loginRequired: boolean;
  readonly #tokens: Buffer[];

  constructor(options: ConsoleAuthOptions) {
    this.loginRequired = options.loginRequired;
    this.#tokens = options.tokens.filter((t): t is string => typeof t === 'string' && t !== '').map(digest);
  }

  /** True when `token` is one of the configured secrets (constant time on the hashes). */
  tokenMatches(token: unknown): boolean {
    if (typeof token !== 'string' || token === '') return false;
    const given = digest(token);
    let ok = false;
    for (const t of this.#tokens) ok = timingSafeEqual(given, t) || ok;
    return ok;
  }

  /** The live session named by the request's cookie, or null. */
  cookieSession(request: FastifyRequest): ConsoleSessionRecord | null {
    return this.sessions.get(readCookie(request, SESSION_COOKIE));
  }
}

/** Makes the auth state reachable from every request of this server (and of its child plugins). */
export function installConsoleAuth(app: FastifyInstance, auth: ConsoleAuth): void {
  app.decorate(DECORATION, auth);
}

/** The server's console auth, or null when the console is not enabled. */
export function consoleAuthOf(request: FastifyRequest): ConsoleAuth | null {
  return (request.server as unknown as { [DECORATION]?: ConsoleAuth })[DECORATION] ?? null;
}

/** One cookie of the request's `Cookie` header (undefined when absent). */
export function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * Who the request is, for the console and the web chat: the session of its cookie, else
 * `loopback` when no login is required (loopback host, no token set), else null (not logged in).
 */
export function consoleSession(request: FastifyRequest): { actor: string } | null {
  const auth = consoleAuthOf(request);
  if (auth === null) return null;
  const session = auth.cookieSession(request);
  if (session !== null) return { actor: session.actor };
  return auth.loginRequired ? null : { actor: 'loopback' };
}

/** The scheme the client used: `x-forwarded-proto` (a TLS proxy in front) else the socket's. */
export function requestProto(request: FastifyRequest): 'http' | 'https' {
  const forwarded = request.headers['x-forwarded-proto'];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim().toLowerCase();
  if (first === 'https' || first === 'http') return first;
  return request.protocol === 'https' ? 'https' : 'http';
}

/** True when the request has no `Origin` header or its origin is the request's own (scheme and Host). */
export function sameOrigin(request: FastifyRequest): boolean {
  const raw = request.headers.origin;
  if (raw === undefined) return true;
  const host = request.headers.host;
  if (host === undefined) return false;
  return raw.trim().toLowerCase().replace(/\/+$/, '') === `${requestProto(request)}://${host.toLowerCase()}`;
}

/**
 * The CSRF check of a POST: header `x-hermes-csrf` equal to the cookie session's token and, when
 * there is an `Origin`, the request's own origin. False after answering 403 `{ error: 'csrf' }`
 * (the caller returns the reply); true to go on.
 */
export function checkCsrf(request: FastifyRequest, reply: FastifyReply): boolean {
  const session = consoleAuthOf(request)?.cookieSession(request) ?? null;
  const header = request.headers[CSRF_HEADER];
  const given = Array.isArray(header) ? header[0] : header;
  const ok =
    session !== null &&
    typeof given === 'string' &&
    given.length === session.csrf.length &&
    timingSafeEqual(Buffer.from(given), Buffer.from(session.csrf)) &&
    sameOrigin(request);
  if (!ok) void reply.code(403).header('connection', 'close').send({ error: 'csrf' });
  return ok;
}

/** The `Set-Cookie` value of a new session (Secure when the client came over https). */
export function sessionCookie(request: FastifyRequest, id: string): string {
  const secure = requestProto(request) === 'https' ? '; Secure' : '';
  return `${SESSION_COOKIE}=${id}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${SESSION_TTL_MS / 1000}${secure}`;
}

/** The `Set-Cookie` value that removes the session cookie. */
export function clearedSessionCookie(): string {
  return `${SESSION_COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0`;
}
