/**
 * The console's actions (POST, CSRF-checked, each logged with its actor): pairing approve, deny and
 * revoke; a session's stop and reset (the `/stop` and `/new` commands' code); plugin enable/disable.
 */
import { platformOfKey } from '@hermes/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteGuard } from '../http/request-guard.js';
import { checkCsrf } from './auth.js';
import { actorOf, bodyString, type ConsoleContext, logAction } from './context.js';

type Handler = (request: FastifyRequest, reply: FastifyReply, actor: string) => Promise<unknown>;

function missing(reply: FastifyReply, fields: string): FastifyReply {
  return reply.code(400).send({ error: `the JSON body needs ${fields} (non-empty strings)` });
}

export function registerActionRoutes(app: FastifyInstance, ctx: ConsoleContext): void {
  const { options } = ctx;
  const post = (url: string, handler: Handler) =>
    app.post(url, { config: { guard: 'console' satisfies RouteGuard } }, async (request, reply) => {
      if (!checkCsrf(request, reply)) return reply;
      return handler(request, reply, actorOf(request));
    });
  const unavailable = (reply: FastifyReply, what: string) =>
    reply.code(501).send({ error: `${what} is not available in this gateway` });

  post('/console/api/pairing/approve', async (request, reply, actor) => {
    const platform = bodyString(request.body, 'platform');
    const code = bodyString(request.body, 'code');
    if (platform === null || code === null) return missing(reply, 'platform and code');
    if (!options.pairing) return unavailable(reply, 'pairing');
    const result = await options.pairing.approve(platform, code);
    if (!result.ok) {
      const status = result.reason === 'rate_limited' ? 429 : 404;
      return reply.code(status).send({ error: `no pending pairing ${platform} ${code} (${result.reason})` });
    }
    logAction(ctx, actor, 'pairing.approve', `${platform}:${result.userId}`, request.ip);
    return { ok: true, userId: result.userId };
  });

  post('/console/api/pairing/deny', async (request, reply, actor) => {
    const platform = bodyString(request.body, 'platform');
    const code = bodyString(request.body, 'code');
    if (platform === null || code === null) return missing(reply, 'platform and code');
    if (!options.pairing) return unavailable(reply, 'pairing');
    if (!(await options.pairing.deny(platform, code)))
      return reply.code(404).send({ error: `no pending pairing ${platform} ${code}` });
    logAction(ctx, actor, 'pairing.deny', `${platform}:${code}`, request.ip);
    return { ok: true };
  });

  post('/console/api/pairing/revoke', async (request, reply, actor) => {
    const platform = bodyString(request.body, 'platform');
    const userId = bodyString(request.body, 'userId');
    if (platform === null || userId === null) return missing(reply, 'platform and userId');
    if (!options.pairing) return unavailable(reply, 'pairing');
    const revoked = await options.pairing.revoke(platform, userId);
    logAction(ctx, actor, 'pairing.revoke', `${platform}:${userId}`, request.ip);
    return { ok: true, revoked };
  });

  post('/console/api/sessions/stop', async (request, reply, actor) => {
    const key = bodyString(request.body, 'key');
    if (key === null) return missing(reply, 'key');
    const stopped = await ctx.gateway.commandPorts(`console:${actor}`).services.stopRun(key);
    logAction(ctx, actor, 'session.stop', key, request.ip);
    return { stopped };
  });

  post('/console/api/sessions/reset', async (request, reply, actor) => {
    const key = bodyString(request.body, 'key');
    if (key === null) return missing(reply, 'key');
    await ctx.gateway.commandPorts(`console:${actor}`).services.resetSession(key, platformOfKey(key));
    logAction(ctx, actor, 'session.reset', key, request.ip);
    return { ok: true };
  });

  for (const [verb, on] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    post(`/console/api/plugins/${verb}`, async (request, reply, actor) => {
      const name = bodyString(request.body, 'name');
      if (name === null) return missing(reply, 'name');
      if (!options.plugins) return unavailable(reply, 'plugin configuration');
      try {
        options.plugins.setEnabled(name, on);
      } catch (err) {
        return reply.code(400).send({ error: err instanceof Error ? err.message : String(err) });
      }
      logAction(ctx, actor, `plugin.${verb}`, name, request.ip);
      return { ok: true, restartNeeded: true };
    });
  }
}
