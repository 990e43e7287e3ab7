/** The console's GET routes: overview, pairing, sessions, a session's transcript, plugins, logs. */
import type { FastifyInstance } from 'fastify';
import type { RouteGuard } from '../http/request-guard.js';
import type { ConsoleContext } from './context.js';
import { isLevelName } from './log-ring.js';
import { overview } from './overview.js';

const GUARDED = { config: { guard: 'console' satisfies RouteGuard } };
const ALLOWLIST_SUFFIX = '_ALLOWED_USERS';

/** `<PLATFORM>_ALLOWED_USERS` (key: platform, lower case) and `GATEWAY_ALLOWED_USERS` (key: `all`). */
export function allowlists(env: Readonly<Record<string, string | undefined>>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(env)) {
    if (!name.endsWith(ALLOWLIST_SUFFIX) || value === undefined) continue;
    const prefix = name.slice(0, -ALLOWLIST_SUFFIX.length);
    const key = prefix === 'GATEWAY' ? 'all' : prefix.toLowerCase();
    out[key] = value
      .split(',')
      .map((v) => v.trim())
      .filter((v) => v !== '');
  }
  return out;
}

function intParam(value: unknown, fallback: number, max: number): number {
  const n = typeof value === 'string' ? Number.parseInt(value, 10) : Number.NaN;
  return Number.isFinite(n) && n > 0 ? Math.min(n, max) : fallback;
}

export function registerDataRoutes(app: FastifyInstance, ctx: ConsoleContext): void {
  const { options } = ctx;
  app.get('/console/api/overview', GUARDED, async () => overview(ctx));

  app.get('/console/api/pairing', GUARDED, async () => {
    const listed = options.pairing ? await options.pairing.list() : { pending: [], approved: [] };
    return { ...listed, allowlists: allowlists(options.env ?? {}) };
  });

  app.get('/console/api/sessions', GUARDED, async (request) => {
    const sessions = options.sessions;
    if (!sessions) return { sessions: [] };
    const query = request.query as { q?: unknown; limit?: unknown };
    const limit = intParam(query.limit, 50, 500);
    const q = typeof query.q === 'string' ? query.q.trim() : '';
    const rows = [];
    if (q !== '') {
      for (const id of await sessions.search(q, limit)) {
        const row = await sessions.get(id);
        if (row) rows.push(row);
      }
    } else rows.push(...(await sessions.list({ limit })));
    const ports = ctx.gateway.commandPorts('console');
    return {
      sessions: await Promise.all(
        rows.map(async (r) => ({
          id: r.id,
          key: r.sessionKey,
          platform: r.platform,
          title: r.title,
          createdAt: r.createdAt,
          updatedAt: r.updatedAt,
          endedAt: r.endedAt,
          running: r.endedAt === null && ports.busy?.(r.sessionKey) === true,
          messages: await sessions.count(r.id),
        })),
      ),
    };
  });

  app.get('/console/api/sessions/:id', GUARDED, async (request, reply) => {
    const { id } = request.params as { id: string };
    const row = await options.sessions?.get(id);
    if (!row || !options.sessions) return reply.code(404).send({ error: `no session ${id}` });
    return { session: row, messages: await options.sessions.messages(id) };
  });

  app.get('/console/api/plugins', GUARDED, async () => {
    const p = options.plugins;
    return {
      plugins: p?.plugins() ?? [],
      shellHooks: p?.shellHooks() ?? [],
      gatewayHooks: p?.gatewayHooks() ?? [],
    };
  });

  app.get('/console/api/logs', GUARDED, async (request, reply) => {
    const query = request.query as { level?: unknown; limit?: unknown };
    const level = query.level ?? 'info';
    if (!isLevelName(level)) {
      return reply.code(400).send({ error: `level must be one of trace, debug, info, warn, error, fatal` });
    }
    return { records: options.logs?.query(level, intParam(query.limit, 200, 1000)) ?? [] };
  });
}
