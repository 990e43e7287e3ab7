/**
 * The gateway's HTTP server (Fastify): `/health`, `/metrics`, the API platform, and the platforms'
 * webhook routes. Built separately from listening, so tests use `inject()` or a port-0 listen.
 */
import { createServer, type Server } from 'node:http';
import { Readable } from 'node:stream';
import { ERROR_CODES, HermesError, isLoopbackHost } from '@hermes/protocol';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { consoleSession, sameOrigin } from '../console/auth.js';
import type { ConsoleServerOptions } from '../console/ports.js';
import { registerConsole } from '../console/register.js';
import { webIdentityOf } from '../console/web-identity.js';
import type { EventLoopStatus } from '../metrics/event-loop-watchdog.js';
import { registerMetricsRoute } from '../metrics/metrics-route.js';
import type { Gateway } from '../runner/gateway.js';
import type { RouteDefinition } from '../runner/platform-setup.js';
import { type ApiPlatformDeps, registerApiPlatform } from '../surfaces/api/api-platform.js';
import { installApiErrors, sendApiError } from './api-error.js';
import { bearerMatches } from './bearer.js';
import { admitConnections } from './connection-admission.js';
import { addMultipartParser } from './multipart-body.js';
import { createRequestGuard, type GuardChecks, type RouteGuard } from './request-guard.js';
import {
  DEFAULT_STREAM_LIMITS,
  installStreamLimiter,
  StreamLimiter,
  type StreamLimits,
  streamLimiterOf,
} from './stream-limiter.js';

/** The HTTP server's limits (`gateway.*` in config.yaml); each has a default. */
export interface HttpLimits {
  /** `gateway.allowed_hosts`: `Host` names answered besides loopback ones */
  allowedHosts?: readonly string[];
  /** `gateway.cors_origins`: browser origins allowed (others get 403) */
  corsOrigins?: readonly string[];
  /** `gateway.max_connections`: open connections at most (more are closed at accept) */
  maxConnections?: number;
  /** `gateway.request_timeout_s` in ms: time to send a whole request (headers and body) */
  requestTimeoutMs?: number;
  /** `gateway.max_streams` / `gateway.max_streams_per_client`: open SSE streams (web chat, console) */
  streams?: StreamLimits;
}

export interface ServerOptions {
  host: string;
  version: string;
  startedAt: number;
  api: ApiPlatformDeps;
  /** the event-loop watchdog: a stall in the last minute makes /health `degraded` (still 200) */
  eventLoop?: { status(): EventLoopStatus };
  limits?: HttpLimits;
  /** several instances on one PostgreSQL database: /health shows the cluster, held-elsewhere platforms as `standby` */
  cluster?: { status(): Promise<unknown>; standby(platform: string): boolean };
  /** the operator console (`gateway.console`; absent: not served): its front-end's files and data ports */
  console?: ConsoleServerOptions & { logger?: ApiPlatformDeps['logger'] };
  /** the enabled plugins that failed to load: any makes /health `degraded` (still 200), each named */
  pluginFailures?: () => readonly PluginFailure[];
}

/** An enabled plugin that did not load, and why. */
export interface PluginFailure {
  name: string;
  error: string;
}

/** A platform as /health shows it. */
export type HealthPlatform = { state: string; since: number; error?: string };

/** Body limit of every route that does not set its own (chat completions and platform webhooks: 4 MiB). */
export const DEFAULT_BODY_LIMIT = 64 * 1024;
export const WEBHOOK_BODY_LIMIT = 4 * 1024 * 1024;
/**
 * Idle time a kept-alive connection is kept open between requests: Fastify's default. Shorter (5 s
 * was tried) races clients that reuse an idle socket just as it closes: the pipeline bench's
 * keep-alive webhook client got "socket hang up" after a pause. Slow clients are bounded by the
 * request and header timeouts, idle sockets by `gateway.max_connections`.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 72_000;
/** Time a client has to send the request headers (at most the request timeout). */
export const HEADERS_TIMEOUT_MS = 10_000;

/** A Node server with the timeouts and the connection cap set (Fastify's serverFactory). */
function limitedServer(limits: HttpLimits) {
  const requestTimeout = limits.requestTimeoutMs ?? 30_000;
  return (handler: Parameters<typeof createServer>[1]): Server => {
    const server = createServer(
      {
        requestTimeout,
        headersTimeout: Math.min(HEADERS_TIMEOUT_MS, requestTimeout),
        keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
        // how often Node looks for requests past their timeout (its default, 30 s, is too coarse)
        connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(requestTimeout / 4))),
      },
      handler,
    );
    // at the cap the oldest slow or idle connection makes room (connection-admission.ts)
    admitConnections(server, limits.maxConnections ?? 256);
    return server;
  };
}

/** True when the host only accepts connections from this machine. */
export function isLoopback(host: string): boolean {
  return isLoopbackHost(host);
}

export interface GatewayServer {
  app: FastifyInstance;
  /** each platform's state as /health shows it (a platform another instance holds: `standby`) */
  platformStates(): Record<string, HealthPlatform>;
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
  const limits = options.limits ?? {};
  // a name beyond loopback (a reverse proxy's) reaches whoever reaches the proxy: never keyless
  const exposed = (limits.allowedHosts ?? []).filter((h) => !isLoopbackHost(h));
  if (exposed.length > 0 && !options.api.apiKey) {
    throw new HermesError(
      ERROR_CODES.CONFIG_KEY,
      `refusing to answer gateway.allowed_hosts ${exposed.join(', ')} without API_SERVER_KEY: set it (the API, the console and the web chat would be open to whoever reaches that name), or remove them`,
    );
  }
  const app = Fastify({
    logger: false,
    bodyLimit: DEFAULT_BODY_LIMIT,
    serverFactory: limitedServer(limits),
  }) as unknown as FastifyInstance;
  installApiErrors(app, options.api.logger);
  installStreamLimiter(app, new StreamLimiter(limits.streams ?? DEFAULT_STREAM_LIMITS));
  app.addHook(
    'onRequest',
    createRequestGuard({
      checks: guardChecks(options.api.apiKey),
      allowedHosts: limits.allowedHosts ?? [],
      corsOrigins: limits.corsOrigins ?? [],
      bindHost: options.host,
    }),
  );
  // CORS preflights are answered by the guard (204 for a listed origin, 403 otherwise); an OPTIONS
  // without an Origin is no preflight and no route
  app.options('/*', { config: { guard: 'api' satisfies RouteGuard } }, async (request, reply) =>
    sendApiError(reply, 404, `no route OPTIONS ${request.url.split('?')[0]}`, 'invalid_request_error', 'not_found'),
  );
  let state: 'starting' | 'running' | 'draining' = 'starting';
  const platformStates = (): Record<string, HealthPlatform> => {
    const platforms: Record<string, HealthPlatform> = {};
    for (const [name, st] of Object.entries(gateway.platformStates())) {
      // another instance holds this platform's one connection: this one is ready to take it over
      platforms[name] = options.cluster?.standby(name) === true ? { state: 'standby', since: st.since } : st;
    }
    return platforms;
  };
  app.get('/health', { config: { guard: 'open' satisfies RouteGuard } }, async (_req, reply) => {
    const platforms = platformStates();
    const allConnected = Object.values(platforms).every((p) => p.state === 'connected' || p.state === 'standby');
    const failedPlugins = options.pluginFailures?.() ?? [];
    const cluster = options.cluster
      ? await options.cluster
          .status()
          .catch((err: unknown) => ({ error: err instanceof Error ? err.message : String(err) }))
      : undefined;
    const eventLoop = options.eventLoop?.status();
    const stalled = (eventLoop?.stalls_last_minute ?? 0) > 0;
    const body = {
      status: allConnected && !stalled && failedPlugins.length === 0 ? 'ok' : 'degraded',
      state,
      uptime_s: Math.round((Date.now() - options.startedAt) / 1000),
      version: options.version,
      platforms,
      ...(failedPlugins.length > 0 ? { plugins: { failed: failedPlugins } } : {}),
      ...(cluster ? { cluster } : {}),
      ...(eventLoop ? { event_loop: eventLoop } : {}),
    };
    return reply.code(state === 'running' ? 200 : 503).send(body);
  });
  registerMetricsRoute(app, gateway.metrics, options.api.apiKey);
  registerApiPlatform(app, options.api, gateway);
  if (options.console) {
    const { logger, ...consoleOptions } = options.console;
    registerConsole(app, gateway, {
      options: consoleOptions,
      loopback: isLoopback(options.host),
      apiKey: options.api.apiKey,
      logger: logger ?? options.api.logger,
      version: options.version,
      startedAt: options.startedAt,
      ...(options.api.redact ? { redact: options.api.redact } : {}),
      ...(options.cluster ? { cluster: options.cluster } : {}),
    });
  }
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    (req as unknown as { rawBody: string }).rawBody = String(body);
    if (String(body).trim() === '') return done(null, {});
    try {
      done(null, JSON.parse(String(body)));
    } catch (error) {
      const detail = error instanceof Error ? `: ${error.message}` : '';
      const err = new Error(`request body is not valid JSON${detail}`) as Error & {
        statusCode: number;
        invalidJson: boolean;
      };
      err.statusCode = 400;
      err.invalidJson = true;
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
    platformStates,
    setState: (next) => {
      state = next;
    },
  };
}

/** Runs a platform route's header check before the body is read; a refusal closes the connection. */
function platformVerifier(verify: NonNullable<RouteDefinition['verify']>) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const refused = verify({ headers: request.headers });
    if (refused === null) return;
    if (refused.headers) for (const [k, v] of Object.entries(refused.headers)) reply.header(k, v);
    await reply
      .code(refused.status)
      .header('connection', 'close')
      .send(refused.body ?? '');
  };
}

/**
 * A route's signal, its controller made when the route asks for it (a stream's producer): a
 * webhook answered at once pays for no controller and no abort (an AbortError and its stack) when
 * its response closes. Asked after the abort, it is already aborted.
 */
function closeSignal(): { readonly signal: AbortSignal; abort(): void } {
  let controller: AbortController | null = null;
  let aborted = false;
  return {
    get signal() {
      controller ??= new AbortController();
      if (aborted) controller.abort();
      return controller.signal;
    },
    abort() {
      aborted = true;
      controller?.abort();
    },
  };
}

/** Adds the platforms' webhook routes (after the gateway built its adapters). */
export function addPlatformRoutes(app: FastifyInstance, gateway: Gateway): void {
  addMultipartParser(app);
  for (const route of gateway.routes) {
    app.route({
      method: route.method,
      url: route.path,
      bodyLimit: route.bodyLimit ?? WEBHOOK_BODY_LIMIT,
      // the platform verifies its own requests (Telegram's secret token, Slack's signature); a browser
      // route (the web chat) is same-origin only and checks its session and CSRF token itself
      config: {
        guard: (route.browser === true ? 'console-open' : 'platform') satisfies RouteGuard,
        multipart: route.multipart,
      },
      ...(route.verify === undefined ? {} : { onRequest: platformVerifier(route.verify) }),
      handler: async (req, reply) => {
        const rawBody = (req as unknown as { rawBody?: string }).rawBody ?? '';
        const closed = closeSignal();
        // 'close' on the response: the client left (or the answer ended); aborts a stream's producer
        reply.raw.on('close', () => closed.abort());
        const query = Object.fromEntries(
          Object.entries((req.query ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
        );
        const res = await route.handler({
          headers: req.headers,
          body: req.body,
          ...(route.browser === true ? { console: webIdentityOf(req) } : {}),
          rawBody,
          query,
          get signal() {
            return closed.signal;
          },
        });
        if (res.stream !== undefined) {
          const admitted = streamLimiterOf(req).admit(req.ip);
          if ('refused' in admitted) {
            closed.abort(); // the producer the route opened stops at once
            return reply.code(429).header('retry-after', '5').send({ error: admitted.refused });
          }
          reply.raw.once('close', () => admitted.release());
        }
        if (res.headers) for (const [k, v] of Object.entries(res.headers)) reply.header(k, v);
        if (res.stream !== undefined) return reply.code(res.status).send(Readable.from(res.stream));
        return reply.code(res.status).send(res.body ?? '');
      },
    });
  }
}

/** The guard's checks: the API key (`API_SERVER_KEY`, when set), the console's session and same-origin rule. */
export function guardChecks(apiKey: string | undefined): GuardChecks {
  const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
  return {
    apiKey: (request) => !apiKey || bearerMatches(header(request.headers.authorization), apiKey),
    consoleSession: (request) => consoleSession(request) !== null,
    sameOrigin,
  };
}
