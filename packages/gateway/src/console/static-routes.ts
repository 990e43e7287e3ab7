/**
 * The console's pages and assets from the front-end's dist directory (@fastify/static): `/` →
 * index.html, `/chat` → chat.html, `/console/assets/*` → dist/*. Served without a session: the
 * login page is part of the bundle, and the pages hold no data (the API answers 401 instead).
 */
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { RouteGuard } from '../http/request-guard.js';

const OPEN = { config: { guard: 'console-open' satisfies RouteGuard } };

export async function registerStaticRoutes(app: FastifyInstance, dist: string): Promise<void> {
  await app.register(fastifyStatic, { root: dist, serve: false, index: false, dotfiles: 'deny' });
  app.get('/', OPEN, async (_request, reply) => reply.sendFile('index.html'));
  app.get('/chat', OPEN, async (_request, reply) => reply.sendFile('chat.html'));
  app.get('/console/assets/*', OPEN, async (request, reply) => {
    const path = (request.params as { '*': string })['*'];
    return reply.sendFile(path);
  });
}
