/**
 * The gateway's HTTP server (Fastify): `/health`, `/metrics`, the API platform, and the platforms'
 * webhook routes. Built separately from listening, so tests use `inject()` or a port-0 listen.
 */
import { ERROR_CODES, HermesError } from '@hermes/protocol';
import Fastify, { type FastifyInstance } from 'fastify';
import { type ApiPlatformDeps, registerApiPlatform } from './api-platform.js';
import type { EventLoopStatus } from './event-loop-watchdog.js';
import type { Gateway } from './gateway.js';
import { registerMetricsRoute } from './metrics/metrics-route.js';

export interface ServerOptions {
  host: string;
  version: string;
  startedAt: number;
  api: ApiPlatformDeps;
  /** the event-loop watchdog: a stall in the last minute makes /health `degraded` (still 200) */
  eventLoop?: { status(): EventLoopStatus };
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/** True when the host only accepts connections from this machine. */
export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || host.startsWith('127.');
}

export interface GatewayServer {
  app: FastifyInstance;
  /** `running` answers /health with 200; `starting` and `draining` with 503 */
  setState(state: 'starting' | 'running' | 'draining'): void;
}

/** Builds (does not listen) the server for a gateway. */
export function buildServer(gateway: Gateway, options: ServerOptions): GatewayServer {
  if (!isLoopback(options.host) && !options.api.apiKey) {
    throw new HermesError(
      ERROR_CODES.CONFIG_KEY,
      `refusing to listen on ${options.host} without API_SERVER_KEY: set it, or keep gateway.host on 127.0.0.1`,
    );
  }
  const app = Fastify({ logger: false, bodyLimit: 4 * 1024 * 1024 });
  let state: 'starting' | 'running' | 'draining' = 'starting';
  app.get('/health', async (_req, reply) => {
    const platforms: Record<string, { state: string; since: number; error?: string }> = {};
    for (const [name, st] of Object.entries(gateway.platformStates())) platforms[name] = st;
    const allConnected = Object.values(platforms).every((p) => p.state === 'connected');
    const eventLoop = options.eventLoop?.status();
    const stalled = (eventLoop?.stalls_last_minute ?? 0) > 0;
    const body = {
      status: allConnected && !stalled ? 'ok' : 'degraded',
      state,
      uptime_s: Math.round((Date.now() - options.startedAt) / 1000),
      version: options.version,
      platforms,
      ...(eventLoop ? { event_loop: eventLoop } : {}),
    };
    return reply.code(state === 'running' ? 200 : 503).send(body);
  });
  registerMetricsRoute(app, gateway.metrics, options.api.apiKey);
  registerApiPlatform(app, options.api);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    (req as unknown as { rawBody: string }).rawBody = String(body);
    if (String(body).trim() === '') return done(null, {});
    try {
      done(null, JSON.parse(String(body)));
    } catch {
      const err = new Error('request body is not valid JSON') as Error & { statusCode: number };
      err.statusCode = 400;
      done(err, undefined);
    }
  });
  // Slack's interactive and slash-command payloads: kept raw (signature checks need the exact bytes)
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (req, body, done) => {
    (req as unknown as { rawBody: string }).rawBody = String(body);
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });
  return {
    app,
    setState: (next) => {
      state = next;
    },
  };
}

/** Adds the platforms' webhook routes (after the gateway built its adapters). */
export function addPlatformRoutes(app: FastifyInstance, gateway: Gateway): void {
  for (const route of gateway.routes) {
    app.route({
      method: route.method,
      url: route.path,
      handler: async (req, reply) => {
        const rawBody = (req as unknown as { rawBody?: string }).rawBody ?? '';
        const res = await route.handler({ headers: req.headers, body: req.body, rawBody });
        if (res.headers) for (const [k, v] of Object.entries(res.headers)) reply.header(k, v);
        return reply.code(res.status).send(res.body ?? '');
      },
    });
  }
}
