/** `/console/api/session`, `/login`, `/logout`, and `/console/login?token=` (a one-time link). */
import type { FastifyInstance } from 'fastify';
import type { RouteGuard } from '../http/request-guard.js';
import { checkCsrf, clearedSessionCookie, readCookie, sessionCookie } from './auth.js';
import { type ConsoleContext, logAction } from './context.js';
import { LoginLimiter } from './login-limiter.js';
import { consumeLoginLink } from './login-links.js';
import { SESSION_COOKIE } from './session-store.js';

const OPEN = { config: { guard: 'console-open' satisfies RouteGuard } };

export function registerAuthRoutes(app: FastifyInstance, ctx: ConsoleContext): void {
  const { auth } = ctx;
  const limiter = new LoginLimiter();
  app.get('/console/api/session', OPEN, async (request, reply) => {
    const session = auth.cookieSession(request);
    if (session !== null)
      return { loggedIn: true, loginRequired: auth.loginRequired, csrf: session.csrf, actor: session.actor };
    if (auth.loginRequired) return { loggedIn: false, loginRequired: true, csrf: null, actor: null };
    // loopback without a token: no login asked; the session (and its CSRF token) made on the fly
    const created = auth.sessions.create('loopback');
    reply.header('set-cookie', sessionCookie(request, created.id));
    return { loggedIn: true, loginRequired: false, csrf: created.csrf, actor: created.actor };
  });

  app.post('/console/api/login', OPEN, async (request, reply) => {
    const token = (request.body as { token?: unknown } | null)?.token;
    if (!auth.loginRequired) {
      const created = auth.sessions.create('loopback');
      reply.header('set-cookie', sessionCookie(request, created.id));
      return { csrf: created.csrf, actor: created.actor };
    }
    const blocked = limiter.blockedUntil(request.ip);
    if (blocked !== null) {
      const retryAfter = Math.max(1, Math.ceil((blocked - Date.now()) / 1000));
      return reply
        .code(429)
        .header('retry-after', String(retryAfter))
        .send({ error: `too many wrong logins from this address: try again in ${retryAfter} s` });
    }
    if (!auth.tokenMatches(token)) {
      limiter.failed(request.ip);
      // the address only: never the token given
      ctx.logger.warn({ ip: request.ip }, `console: login refused from ${request.ip} (wrong token)`);
      return reply.code(401).send({ error: 'wrong token: give gateway.console.token or API_SERVER_KEY' });
    }
    const created = auth.sessions.create('token');
    logAction(ctx, created.actor, 'login', 'token', request.ip);
    reply.header('set-cookie', sessionCookie(request, created.id));
    return { csrf: created.csrf, actor: created.actor };
  });

  // a one-time link of `hermes console url`: the session cookie, then the console
  app.get('/console/login', OPEN, async (request, reply) => {
    const path = ctx.options.loginLinks;
    const token = (request.query as { token?: unknown } | null)?.token;
    const blocked = limiter.blockedUntil(request.ip);
    if (path === undefined || blocked !== null || !consumeLoginLink(path, token)) {
      if (blocked === null) limiter.failed(request.ip);
      ctx.logger.warn({ ip: request.ip }, `console: login link refused from ${request.ip} (wrong, used or expired)`);
      return reply
        .code(401)
        .type('text/plain; charset=utf-8')
        .send('This login link is wrong, used or expired: run `hermes console url` for a new one.\n');
    }
    const created = auth.sessions.create('link');
    logAction(ctx, created.actor, 'login', 'link', request.ip);
    return reply.header('set-cookie', sessionCookie(request, created.id)).redirect('/console/', 303);
  });

  app.post('/console/api/logout', OPEN, async (request, reply) => {
    if (!checkCsrf(request, reply)) return reply;
    const session = auth.cookieSession(request);
    auth.sessions.delete(readCookie(request, SESSION_COOKIE));
    if (session !== null) logAction(ctx, session.actor, 'logout', 'session', request.ip);
    reply.header('set-cookie', clearedSessionCookie());
    return { ok: true };
  });
}
