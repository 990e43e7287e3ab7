/** `/console/api/session`, `/login`, `/logout`. */
import type { FastifyInstance } from 'fastify';
import type { RouteGuard } from '../http/request-guard.js';
import { checkCsrf, clearedSessionCookie, readCookie, sessionCookie } from './auth.js';
import { type ConsoleContext, logAction } from './context.js';
import { LoginLimiter } from './login-limiter.js';
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
    logAction(ctx, created.actor, 'login', request.ip);
    reply.header('set-cookie', sessionCookie(request, created.id));
    return { csrf: created.csrf, actor: created.actor };
  });

  app.post('/console/api/logout', OPEN, async (request, reply) => {
    if (!checkCsrf(request, reply)) return reply;
    const session = auth.cookieSession(request);
    auth.sessions.delete(readCookie(request, SESSION_COOKIE));
    if (session !== null) logAction(ctx, session.actor, 'logout', request.ip);
    reply.header('set-cookie', clearedSessionCookie());
    return { ok: true };
  });
}
