// The web chat on a public host, through the real gateway (pipeline, pairing, SQLite) and its real
// server with the console: a visitor is a stranger who gets a pairing code, never a `console:` user;
// only a console login makes a browser an operator; a visitor's CSRF token is bound to its browser
// id; a cross-site POST is refused before anything is read.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ModelClient, ToolRegistry } from '@hermes/agent';
import { addPlatformRoutes, buildServer, Gateway, GatewayMetrics } from '@hermes/gateway';
import { HookBus } from '@hermes/plugins';
import { silentLogger } from '@hermes/protocol';
import { openStore, type Store } from '@hermes/store';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { webFactory } from '../../plugins/platforms/web/index.js';
import { sqliteGatewayStore } from '../helpers/gateway-store.js';
import { waitFor } from '../helpers/wait-for.js';

const HOST = 'chat.example.org';
const TOKEN = 'web-chat-console-token-0123456789';

interface Setup {
  app: FastifyInstance;
  store: Store;
  close(): Promise<void>;
}

let setup: Setup | undefined;
afterEach(async () => {
  await setup?.close();
  setup = undefined;
});

async function start(): Promise<Setup> {
  const dir = mkdtempSync(join(tmpdir(), 'hermes-web-sec-'));
  mkdirSync(join(dir, 'dist'));
  writeFileSync(join(dir, 'dist', 'index.html'), '<!doctype html>');
  writeFileSync(join(dir, 'dist', 'chat.html'), '<!doctype html>');
  const store = openStore(join(dir, 'state.db'));
  const gatewayStore = sqliteGatewayStore(store);
  const hooks = new HookBus({ timeoutMs: 300 });
  const gateway = new Gateway({
    settings: {
      turn: { model: 'test-model', maxIterations: 1, toolTimeoutMs: 1_000, toolsets: [], cwd: dir },
      busyMode: 'queue',
      maxConcurrentRuns: 2,
      freeResponseChats: [],
      groupSessions: 'per_user',
      resetPolicy: { mode: 'none', idle_minutes: 60, at_hour: 4 },
      platformSettings: {},
      cacheDir: join(dir, 'cache'),
    },
    env: {},
    logger: silentLogger,
    hooks,
    tools: new ToolRegistry(),
    client: new ModelClient({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: '', timeoutMs: 500, maxRetries: 0, hooks }),
    store: gatewayStore,
    platforms: [webFactory],
    pluginCommands: () => new Map(),
    pluginSummary: () => 'Plugins (0):',
    setHomeChannel: () => {},
    metrics: new GatewayMetrics(),
  });
  await gateway.start();
  const server = buildServer(gateway, {
    host: '0.0.0.0',
    version: '0.0.0',
    startedAt: Date.now(),
    api: {
      model: 'test-model',
      apiKey: 'sk-api-key-0123456789',
      logger: silentLogger,
      sessions: gatewayStore.sessions,
      transcripts: gatewayStore.transcripts,
    } as Parameters<typeof buildServer>[1]['api'],
    limits: { allowedHosts: [HOST] },
    console: {
      dist: join(dir, 'dist'),
      token: TOKEN,
      env: {},
      pairing: {
        list: async () => store.pairing.list(),
        approve: async (p, c) => store.pairing.approve(p, c),
        deny: async (p, c) => store.pairing.deny(p, c),
        revoke: async (p, u) => store.pairing.revoke(p, u),
      },
      sessions: {
        list: async (o) => store.sessions.list(o),
        get: async (id) => store.sessions.get(id),
        search: async () => [],
        messages: async (id) => store.transcripts.list(id),
        count: async (id) => store.transcripts.count(id),
      },
      plugins: { plugins: () => [], shellHooks: () => [], gatewayHooks: () => [], setEnabled: () => {} },
    },
  });
  addPlatformRoutes(server.app, gateway);
  server.setState('running');
  await server.app.ready();
  return {
    app: server.app,
    store,
    async close() {
      await server.app.close();
      await gateway.stop(0);
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

type Inject = { status: number; cookie: string; body: Record<string, unknown> };

async function call(
  app: FastifyInstance,
  method: 'GET' | 'POST',
  url: string,
  headers: Record<string, string> = {},
  body?: unknown,
): Promise<Inject> {
  const res = await app.inject({
    method,
    url,
    headers: { host: HOST, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  return {
    status: res.statusCode,
    cookie: String(res.headers['set-cookie'] ?? '').split(';')[0] ?? '',
    body: res.body === '' ? {} : (res.json() as Record<string, unknown>),
  };
}

describe('web chat security on a public host', () => {
  it('a visitor is a stranger: its message asks for pairing and starts no session', async () => {
    setup = await start();
    const { app, store } = setup;
    const session = await call(app, 'GET', '/chat/api/session');
    expect(session.body.operator).toBe(false);
    const browserId = session.cookie.split('=')[1] ?? '';
    const sent = await call(
      app,
      'POST',
      '/chat/api/messages',
      { cookie: session.cookie, 'x-hermes-csrf': String(session.body.csrf) },
      { text: 'let me in' },
    );
    expect(sent.status).toBe(202);
    await waitFor(() => store.pairing.list().pending.length === 1);
    expect(store.pairing.list().pending[0]).toMatchObject({ platform: 'web', userId: browserId });
    expect(store.sessions.list({ limit: 10 })).toHaveLength(0);
  });

  it('a browser id cookie claiming a console user is replaced, never trusted', async () => {
    setup = await start();
    const forged = await call(app(), 'GET', '/chat/api/session', { cookie: 'hermes_web=console:token:abcdef' });
    expect(forged.body.operator).toBe(false);
    expect(forged.cookie).toMatch(/^hermes_web=[A-Za-z0-9_-]+$/);
    expect(forged.body.userId).not.toMatch(/console/);
  });

  it("a visitor's CSRF token does not work for another browser; a cross-site POST is refused", async () => {
    setup = await start();
    const a = await call(app(), 'GET', '/chat/api/session');
    const b = await call(app(), 'GET', '/chat/api/session');
    const swapped = await call(
      app(),
      'POST',
      '/chat/api/messages',
      { cookie: b.cookie, 'x-hermes-csrf': String(a.body.csrf) },
      { text: 'x' },
    );
    expect(swapped.status).toBe(403);
    const crossSite = await call(
      app(),
      'POST',
      '/chat/api/messages',
      { cookie: a.cookie, 'x-hermes-csrf': String(a.body.csrf), origin: 'https://evil.example' },
      { text: 'x' },
    );
    expect(crossSite.status).toBe(403);
    expect(setup.store.pairing.list().pending).toHaveLength(0);
  });

  it('a console login makes the browser an operator (console:<actor>), admitted without pairing, with the console CSRF token', async () => {
    setup = await start();
    const wrong = await call(app(), 'POST', '/console/api/login', {}, { token: 'not-the-token' });
    expect(wrong.status).toBe(401);
    const login = await call(app(), 'POST', '/console/api/login', {}, { token: TOKEN });
    expect(login.status).toBe(200);
    const visitor = await call(app(), 'GET', '/chat/api/session');
    const cookie = `${visitor.cookie}; ${login.cookie}`;
    const session = await call(app(), 'GET', '/chat/api/session', { cookie });
    expect(session.body).toMatchObject({ operator: true, csrf: login.body.csrf });
    expect(String(session.body.userId)).toMatch(/^console:token:[0-9a-f]{6}$/);
    const withVisitorToken = await call(
      app(),
      'POST',
      '/chat/api/messages',
      { cookie, 'x-hermes-csrf': String(visitor.body.csrf) },
      { text: 'hi' },
    );
    expect(withVisitorToken.status).toBe(403);
    const sent = await call(
      app(),
      'POST',
      '/chat/api/messages',
      { cookie, 'x-hermes-csrf': String(login.body.csrf) },
      { text: 'hi' },
    );
    expect(sent.status).toBe(202);
    const browserId = visitor.cookie.split('=')[1] ?? '';
    await waitFor(
      () => setup?.store.sessions.list({ limit: 10 }).some((s) => s.sessionKey === `web:${browserId}:dm`) === true,
    );
    expect(setup.store.pairing.list().pending).toHaveLength(0);
  });
});

function app(): FastifyInstance {
  if (setup === undefined) throw new Error('not started');
  return setup.app;
}
