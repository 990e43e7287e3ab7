/**
 * The console's Trust view: the items that need the operator's consent (pending and approved) and
 * their approve/revoke, as `hermes trust list|approve|revoke` through the app's port. Actions are
 * POST, CSRF-checked and audited with actor and address like the others; like the CLI, an approval
 * takes effect at the next start.
 */
import type { FastifyInstance } from 'fastify';
import type { RouteGuard } from '../http/request-guard.js';
import { checkCsrf } from './auth.js';
import { actorOf, bodyString, type ConsoleContext, logAction } from './context.js';

const GUARDED = { config: { guard: 'console' satisfies RouteGuard } };

export function registerTrustRoutes(app: FastifyInstance, ctx: ConsoleContext): void {
  const trust = ctx.options.trust;
  app.get('/console/api/trust', GUARDED, async () => ({ items: trust ? trust.list() : [], appliesAt: 'next start' }));

  for (const action of ['approve', 'revoke'] as const) {
    app.post(`/console/api/trust/${action}`, GUARDED, async (request, reply) => {
      if (!checkCsrf(request, reply)) return reply;
      const id = bodyString(request.body, 'id');
      if (id === null) return reply.code(400).send({ error: 'the JSON body needs id (a non-empty string)' });
      if (!trust) return reply.code(501).send({ error: 'trust is not available in this gateway' });
      const actor = actorOf(request);
      if (action === 'approve') {
        const row = trust.approve(id);
        if (row === null) return reply.code(404).send({ error: `nothing to approve named ${id}` });
        logAction(ctx, actor, 'trust.approve', `${id} sha256 ${row.sha256.slice(0, 12)}`, request.ip);
        return { ok: true, item: row, appliesAt: 'next start' };
      }
      if (!trust.revoke(id)) return reply.code(404).send({ error: `no approval of ${id} on file` });
      logAction(ctx, actor, 'trust.revoke', id, request.ip);
      return { ok: true, appliesAt: 'next start' };
    });
  }
}
