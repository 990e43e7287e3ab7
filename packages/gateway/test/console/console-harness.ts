// An in-process gateway with the console on its server (app.inject), a real pino logger whose
// redacted lines feed the console's log ring, a real SQLite store behind the console's ports, and a
// tiny front-end in a temp dir.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ModelClient, ToolRegistry } from '@hermes/agent';
import { createLogger } from '@hermes/logging';
import { HookBus } from '@hermes/plugins';
import type { Logger } from '@hermes/protocol';
import { openStore, type Store } from '@hermes/store';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { type MemoryPlatform, memoryPlatform } from '../../../../test/gateway/memory-platform.js';
import { sqliteGatewayStore } from '../../../../test/helpers/gateway-store.js';
import { LogRing } from '../../src/console/log-ring.js';
import type { ConsolePluginRow, ConsoleTrustRow } from '../../src/console/ports.js';
import { buildServer } from '../../src/http/server.js';
import { GatewayMetrics } from '../../src/metrics/gateway-metrics.js';
import { Gateway } from '../../src/runner/gateway.js';

export const SECRET_TOKEN = 'console-login-token-0123456789';
export const API_KEY = 'sk-console-api-key-abcdef0123456789';
/** a secret the redactor knows, written into a transcript and a log line by tests */
export const LEAKY = 'sk-leaky-secret-value-9876543210';

export interface ConsoleHarness {
  app: FastifyInstance;
  gateway: Gateway;
  store: Store;
  platform: MemoryPlatform;
  logs: LogRing;
  /** the gateway's logger (pino, redacting) */
  logger: Logger;
  /** the log file's text (what pino wrote, redacted) */
  logText(): string;
  pluginToggles: { name: string; on: boolean }[];
  /** a request with the Host the guard accepts */
  request(
    method: 'GET' | 'POST',
    url: string,
    options?: { cookie?: string; csrf?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<LightMyRequestResponse>;
  /** logs in (or opens the loopback session): the cookie header value and the CSRF token */
  login(token?: string): Promise<{ cookie: string; csrf: string }>;
  stop(): Promise<void>;
}

export const PUBLIC_HOST = 'hermes.example.org';

export async function startConsole(
  options: {
    host?: string;
    apiKey?: string;
    token?: string;
    /** a loopback request is the operator (as with the terminal tool off); default true here */
    loopbackOperator?: boolean;
    /** the one-time login links' file */
    loginLinks?: string;
    intervals?: { platformsMs?: number; metricsMs?: number };
  } = {},
): Promise<ConsoleHarness> {
  const host = options.host ?? '127.0.0.1';
  const dir = mkdtempSync(join(tmpdir(), 'hermes-console-'));
  const dist = join(dir, 'dist');
  const { mkdirSync } = await import('node:fs');
  mkdirSync(dist);
  writeFileSync(
    join(dist, 'index.html'),
    '<!doctype html><title>Hermes console</title><script src="/console/assets/console.js"></script>',
  );
  writeFileSync(join(dist, 'chat.html'), '<!doctype html><title>Hermes chat</title>');
  writeFileSync(join(dist, 'console.js'), 'console.log("console");');
  writeFileSync(join(dir, 'outside.txt'), 'not served');
  const secrets = [SECRET_TOKEN, API_KEY, LEAKY];
  const log = createLogger({ dir, fileName: 'gateway.log', level: 'info', secrets });
  const logs = new LogRing();
  log.tap(logs.push);
  const redact = (text: string) => secrets.reduce((t, s) => t.split(s).join('[REDACTED]'), text);
  const metrics = new GatewayMetrics();
  const store = openStore(join(dir, 'state.db'));
  const hooks = new HookBus({ timeoutMs: 300 });
  const platform = memoryPlatform();
  const gateway = new Gateway({
    settings: {
      turn: { model: 'test-model', maxIterations: 2, toolTimeoutMs: 1_000, toolsets: ['*'], cwd: dir },
      busyMode: 'queue',
      maxConcurrentRuns: 2,
      freeResponseChats: [],
      groupSessions: 'per_user',
      resetPolicy: { mode: 'none', idle_minutes: 60, at_hour: 4 },
      platformSettings: {},
      cacheDir: join(dir, 'cache'),
    },
    env: { MEMORY_ALLOWED_USERS: 'u1' },
    logger: log.logger.child({ component: 'gateway' }),
    hooks,
    tools: new ToolRegistry(),
    client: new ModelClient({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: '', timeoutMs: 500, maxRetries: 0, hooks }),
    store: sqliteGatewayStore(store),
    platforms: [platform.factory],
    pluginCommands: () => new Map(),
    pluginSummary: () => 'Plugins (0):',
    setHomeChannel: () => {},
    metrics,
    redact,
  });
  await gateway.start();
  const pluginToggles: { name: string; on: boolean }[] = [];
  const trustRows: ConsoleTrustRow[] = [
    { id: 'boot:BOOT.md', what: 'BOOT.md', state: 'new', sha256: 'ab'.repeat(32) },
    { id: 'skill:notes', what: 'skill notes', state: 'approved', sha256: 'cd'.repeat(32) },
  ];
  const plugins: ConsolePluginRow[] = [{ name: 'calculator', kind: 'standalone', state: 'enabled', enabled: true }];
  const apiKey = options.apiKey;
  const server = buildServer(gateway, {
    host,
    version: '9.9.9',
    startedAt: Date.now(),
    api: {
      model: 'test-model',
      ...(apiKey ? { apiKey } : {}),
      logger: log.logger.child({ component: 'api' }),
      sessions: sqliteGatewayStore(store).sessions,
      transcripts: sqliteGatewayStore(store).transcripts,
      redact,
    } as Parameters<typeof buildServer>[1]['api'],
    // a public name needs the key (a keyless start with one is refused)
    limits: { allowedHosts: apiKey ? [PUBLIC_HOST] : [] },
    console: {
      dist,
      ...(options.token ? { token: options.token } : {}),
      loopbackOperator: options.loopbackOperator ?? true,
      ...(options.loginLinks ? { loginLinks: options.loginLinks } : {}),
      logs,
      logger: log.logger.child({ component: 'console' }),
      env: { TELEGRAM_ALLOWED_USERS: '11, 22', GATEWAY_ALLOWED_USERS: 'ops', PATH: '/bin' },
      ...(options.intervals ? { intervals: options.intervals } : {}),
      pairing: {
        list: async () => store.pairing.list(),
        approve: async (p, c) => store.pairing.approve(p, c),
        deny: async (p, c) => store.pairing.deny(p, c),
        revoke: async (p, u) => store.pairing.revoke(p, u),
      },
      sessions: {
        list: async (o) => store.sessions.list(o),
        get: async (id) => store.sessions.get(id),
        search: async (q, limit) => store.sessionSearch.search(q, { limit }).map((h) => h.sessionId),
        messages: async (id) => store.transcripts.list(id),
        count: async (id) => store.transcripts.count(id),
      },
      plugins: {
        plugins: () => plugins,
        shellHooks: () => [{ event: 'pre_tool_call', command: '~/hooks/check.sh', state: 'registered' }],
        gatewayHooks: () => [{ name: 'boot-md', events: ['gateway:startup'], state: 'running' }],
        setEnabled: (name, on) => {
          if (name !== 'calculator') throw new Error(`no plugin named "${name}"`);
          pluginToggles.push({ name, on });
        },
      },
      trust: {
        list: () => trustRows,
        approve: (id) => {
          const found = trustRows.find((r) => r.id === id);
          if (!found) return null;
          found.state = 'approved';
          return { ...found };
        },
        revoke: (id) => {
          const found = trustRows.find((r) => r.id === id && r.state === 'approved');
          if (!found) return false;
          found.state = 'new';
          return true;
        },
      },
    },
  });
  server.setState('running');
  await server.app.ready();
  const hostHeader = host === '127.0.0.1' ? '127.0.0.1:8642' : PUBLIC_HOST;
  const harness: ConsoleHarness = {
    app: server.app,
    gateway,
    store,
    platform,
    logs,
    logger: log.logger,
    pluginToggles,
    logText: () => readFileSync(join(dir, 'gateway.log'), 'utf8'),
    request: (method, url, o = {}) =>
      server.app.inject({
        method,
        url,
        headers: {
          host: hostHeader,
          ...(o.cookie ? { cookie: o.cookie } : {}),
          ...(o.csrf ? { 'x-hermes-csrf': o.csrf } : {}),
          ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...o.headers,
        },
        ...(o.body !== undefined ? { payload: JSON.stringify(o.body) } : {}),
      }),
    async login(token) {
      const res =
        token === undefined
          ? await harness.request('GET', '/console/api/session')
          : await harness.request('POST', '/console/api/login', { body: { token } });
      const setCookie = String(res.headers['set-cookie'] ?? '');
      const csrf = (res.json() as { csrf: string }).csrf;
      return { cookie: setCookie.split(';')[0] ?? '', csrf };
    },
    async stop() {
      const closing = server.app.close();
      // the test's fetch client (undici) keeps its sockets half-open up to its keep-alive timeout
      server.app.server.closeAllConnections();
      await closing;
      await gateway.stop(0);
      store.close();
      await log.close();
    },
  };
  return harness;
}
