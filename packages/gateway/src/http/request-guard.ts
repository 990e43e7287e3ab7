/**
 * The checks every request to the gateway's own routes passes in `onRequest`, before its body is
 * read: `Host` (loopback names and addresses, `gateway.allowed_hosts`, else 421), a browser
 * `Origin` (only `gateway.cors_origins`, else 403) and the API key (`API_SERVER_KEY`, else 401).
 * Platform webhook routes skip all three (they verify their own secret or signature); `/health`
 * and CORS preflights skip the key. Console routes (`console`, `console-open`) take no API key and
 * no cross-origin caller: an `Origin` must be the request's own (else 403 `{ error: 'csrf' }`), and
 * `console` routes need a console session (else 401 `{ error }`). A platform's browser routes (the web
 * chat's API, `RouteOptions.browser`) are `console-open`: they check their own session and CSRF header.
 */
import { isLoopbackHost } from '@hermes/protocol';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendApiError } from './api-error.js';

/**
 * What a route asks of the guard (Fastify route `config.guard`); unknown routes count as `api`.
 * `console`: a console session instead of the API key; `console-open`: the console's pages, assets
 * and login (no session needed, same-origin only).
 */
export type RouteGuard = 'api' | 'open' | 'platform' | 'console' | 'console-open';

/** The checks the guard asks of the routes it guards, injected where the server is built. */
export interface GuardChecks {
  /** the request carries the API key (true when none is configured) */
  apiKey(request: FastifyRequest): boolean;
  /** the request has a console session */
  consoleSession(request: FastifyRequest): boolean;
  /** a browser `Origin`, when sent, is the request's own */
  sameOrigin(request: FastifyRequest): boolean;
}

export interface GuardOptions {
  checks: GuardChecks;
  /** `gateway.allowed_hosts`: host names answered besides loopback */
  allowedHosts: readonly string[];
  /** `gateway.cors_origins`: browser origins allowed */
  corsOrigins: readonly string[];
  /** the address the server listens on: answered too when it is a specific one (not 0.0.0.0 / ::) */
  bindHost?: string;
}

const CORS_HEADERS = 'authorization, content-type, x-hermes-session';
const CORS_METHODS = 'GET, POST, OPTIONS';

/** The host name of a `Host` header value, lower case, without port, brackets or a trailing dot. */
export function hostName(value: string): string {
  const v = value.trim().toLowerCase();
  if (v.startsWith('[')) {
    const end = v.indexOf(']');
    return end === -1 ? v : v.slice(1, end);
  }
  const colons = v.split(':').length - 1;
  const name = colons === 1 ? v.slice(0, v.indexOf(':')) : v;
  return name.endsWith('.') ? name.slice(0, -1) : name;
}

/** True for localhost, 127.0.0.0/8 and ::1 (a name, not a resolution: nothing is looked up). */
export const isLoopbackName = isLoopbackHost;

function normalizeOrigin(origin: string): string {
  return origin.trim().toLowerCase().replace(/\/+$/, '');
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Builds the `onRequest` hook. */
export function createRequestGuard(options: GuardOptions) {
  const hosts = new Set(options.allowedHosts.map(hostName));
  if (options.bindHost !== undefined) {
    const bind = hostName(options.bindHost.includes(':') ? `[${options.bindHost}]` : options.bindHost);
    if (bind !== '0.0.0.0' && bind !== '::' && bind !== '') hosts.add(bind);
  }
  const origins = new Set(options.corsOrigins.map(normalizeOrigin));

  return async function guard(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const kind = (request.routeOptions.config as { guard?: RouteGuard } | undefined)?.guard ?? 'api';
    if (kind === 'platform') return;
    const host = single(request.headers.host);
    const name = host === undefined ? '' : hostName(host);
    if (!isLoopbackName(name) && !hosts.has(name)) {
      return sendApiError(
        reply.header('connection', 'close'),
        421,
        `Host "${host ?? ''}" is not served here: use a loopback address or add it to gateway.allowed_hosts`,
        'invalid_request_error',
        'misdirected_request',
      );
    }
    if (kind === 'console' || kind === 'console-open') return consoleCheck(options.checks, kind, request, reply);
    const origin = single(request.headers.origin);
    if (origin !== undefined) {
      if (!origins.has(normalizeOrigin(origin))) {
        return sendApiError(
          reply.header('connection', 'close'),
          403,
          `Origin "${origin}" is not allowed: add it to gateway.cors_origins to call the API from that page`,
          'invalid_request_error',
          'origin_not_allowed',
        );
      }
      reply.header('access-control-allow-origin', origin).header('vary', 'Origin');
      if (request.method === 'OPTIONS') {
        return reply
          .code(204)
          .header('access-control-allow-methods', CORS_METHODS)
          .header('access-control-allow-headers', CORS_HEADERS)
          .header('access-control-max-age', '600')
          .send();
      }
    }
    if (kind === 'open' || request.method === 'OPTIONS') return;
    if (!options.checks.apiKey(request)) {
      return sendApiError(
        reply.header('connection', 'close').header('www-authenticate', 'Bearer'),
        401,
        'Missing or wrong API key (Authorization: Bearer <API_SERVER_KEY>)',
        'authentication_error',
        'invalid_api_key',
      );
    }
  };
}

/** The console routes' part of the guard (after the Host check). */
async function consoleCheck(
  checks: GuardChecks,
  kind: 'console' | 'console-open',
  request: FastifyRequest,
  reply: FastifyReply,
) {
  if (!checks.sameOrigin(request)) {
    return reply.code(403).header('connection', 'close').send({ error: 'csrf' });
  }
  if (kind === 'console' && !checks.consoleSession(request)) {
    return reply.code(401).send({ error: 'not logged in to the console: POST /console/api/login { token }' });
  }
}
