/**
 * The web chat's view of the console session (`RouteRequest.console` of a platform's browser
 * route): a logged-in browser is the operator `console:<actor>` with its session's CSRF token; on
 * a console that asks no login (loopback, no token), every browser is `console:loopback` (its CSRF
 * token is then the chat's own); else, or with no console, null: a visitor.
 */
import type { WebIdentity } from '@hermes/protocol';
import type { FastifyRequest } from 'fastify';
import { consoleAuthOf } from './auth.js';

export function webIdentityOf(request: FastifyRequest): WebIdentity | null {
  const auth = consoleAuthOf(request);
  if (auth === null) return null;
  const session = auth.cookieSession(request);
  if (session !== null) return { userId: `console:${session.actor}`, approved: true, csrf: session.csrf };
  return auth.loginRequired ? null : { userId: 'console:loopback', approved: true };
}
