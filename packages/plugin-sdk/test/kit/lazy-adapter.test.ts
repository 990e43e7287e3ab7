// lazyAdapter: the adapter's module is loaded on start (or the first send), never at creation; the
// routes exist from creation; a load that fails or does not match its declaration is `error`.
import type {
  InboundSink,
  PlatformAdapter,
  PlatformCapabilities,
  PlatformContext,
  PlatformState,
  RouteOptions,
  RouteRequest,
  RouteResponse,
} from '@hermes/protocol';
import { silentLogger } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { type LazyAdapterOptions, lazyAdapter } from '../../src/kit/lazy-adapter.js';

const CAPABILITIES: PlatformCapabilities = {
  maxMessageLength: 100,
  formatting: 'plain',
  editing: true,
  typing: false,
  threads: false,
  sendRate: { perChat: { count: 1, perMs: 1_000 } },
};

interface Route {
  method: string;
  path: string;
  handler: (request: RouteRequest) => Promise<RouteResponse>;
  options?: RouteOptions;
}

function harness() {
  const routes: Route[] = [];
  const context: PlatformContext = {
    settings: {},
    env: {},
    logger: silentLogger,
    cacheDir: '/nonexistent',
    state: { get: () => undefined, set: () => {}, delete: () => {} },
    commands: () => [],
    route: (method, path, handler, options) => routes.push({ method, path, handler, ...(options ? { options } : {}) }),
  };
  return { context, routes };
}

/** The adapter `load` creates: records its calls; adds the route `/hook` when given `routeTo`. */
function innerAdapter(context: PlatformContext, extra: Partial<PlatformAdapter> = {}) {
  const calls: string[] = [];
  let state: PlatformState = { state: 'disconnected', since: 0 };
  context.route('POST', '/hook', async (request) => ({ status: 200, body: { got: request.rawBody } }), {
    verify: (request) => (request.headers['x-secret'] === 'ok' ? null : { status: 401 }),
  });
  const adapter: PlatformAdapter = {
    name: 'demo',
    capabilities: { ...CAPABILITIES },
    async start() {
      calls.push('start');
      state = { state: 'connected', since: 1 };
    },
    async stop() {
      calls.push('stop');
      state = { state: 'stopped', since: 2 };
    },
    async send(message) {
      calls.push(`send ${message.text}`);
      return { ok: true, messageIds: ['1'] };
    },
    async edit(message) {
      calls.push(`edit ${message.text}`);
      return { ok: true, messageIds: [message.messageId] };
    },
    format: (markdown) => markdown.toUpperCase(),
    status: () => ({ ...state }),
    ...extra,
  };
  return { adapter, calls };
}

function options(overrides: Partial<LazyAdapterOptions> & Pick<LazyAdapterOptions, 'load'>): LazyAdapterOptions {
  return {
    name: 'demo',
    capabilities: CAPABILITIES,
    apiUrl: 'https://api.example.invalid',
    format: (markdown) => `*${markdown}*`,
    methods: ['edit'],
    routes: [{ method: 'POST', path: '/hook' }],
    ...overrides,
  };
}

const sink: InboundSink = { accept: async () => {} };
const request = (secret: string): RouteRequest => ({ headers: { 'x-secret': secret }, body: {}, rawBody: 'hi' });

describe('lazyAdapter', () => {
  it('creates the adapter without loading its module: name, capabilities, methods, format and routes from the declaration', () => {
    const { context, routes } = harness();
    let loads = 0;
    const adapter = lazyAdapter(
      context,
      options({
        holdsConnection: true,
        load: async (c) => {
          loads += 1;
          return innerAdapter(c).adapter;
        },
      }),
    );
    expect(loads).toBe(0);
    expect(adapter.name).toBe('demo');
    expect(adapter.capabilities).toEqual(CAPABILITIES);
    expect(adapter.holdsConnection).toBe(true);
    expect(typeof adapter.edit).toBe('function');
    expect(adapter.sendMedia).toBeUndefined();
    expect(adapter.react).toBeUndefined();
    expect(adapter.format('x')).toBe('*x*');
    expect(adapter.status().state).toBe('disconnected');
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /hook']);
  });

  it('drops the declared send rate for a loopback API, as createPlatformKit does', () => {
    const { context } = harness();
    const adapter = lazyAdapter(
      context,
      options({ apiUrl: 'http://127.0.0.1:9', load: async (c) => innerAdapter(c).adapter }),
    );
    expect(adapter.capabilities.sendRate).toBeUndefined();
  });

  it('loads on start, then hands over start, sends, status and the route (503 before, before the body is read)', async () => {
    const { context, routes } = harness();
    let inner: ReturnType<typeof innerAdapter> | undefined;
    const adapter = lazyAdapter(
      context,
      options({
        load: async (c) => {
          inner = innerAdapter(c);
          return inner.adapter;
        },
      }),
    );
    const route = routes[0];
    if (route === undefined) throw new Error('no route');
    expect(route.options?.verify?.(request('ok'))).toMatchObject({ status: 503 });
    expect(await route.handler(request('ok'))).toMatchObject({ status: 503 });

    await adapter.start(sink);
    expect(inner?.calls).toEqual(['start']);
    expect(adapter.status().state).toBe('connected');
    expect(route.options?.verify?.(request('wrong'))).toEqual({ status: 401 });
    expect(route.options?.verify?.(request('ok'))).toBeNull();
    expect(await route.handler(request('ok'))).toEqual({ status: 200, body: { got: 'hi' } });
    expect(await adapter.send({ chatId: 'c', text: 'hello', formatted: true })).toEqual({
      ok: true,
      messageIds: ['1'],
    });
    expect(await adapter.edit?.({ chatId: 'c', messageId: '1', text: 'again', formatted: true })).toMatchObject({
      ok: true,
    });
    await adapter.stop();
    expect(inner?.calls).toEqual(['start', 'send hello', 'edit again', 'stop']);
    expect(adapter.status().state).toBe('stopped');
  });

  it('loads once on a send before the start (no start), and once only', async () => {
    const { context } = harness();
    let loads = 0;
    let inner: ReturnType<typeof innerAdapter> | undefined;
    const adapter = lazyAdapter(
      context,
      options({
        load: async (c) => {
          loads += 1;
          inner = innerAdapter(c);
          return inner.adapter;
        },
      }),
    );
    const [a, b] = await Promise.all([
      adapter.send({ chatId: 'c', text: 'one', formatted: true }),
      adapter.send({ chatId: 'c', text: 'two', formatted: true }),
    ]);
    expect(a.ok && b.ok).toBe(true);
    expect(loads).toBe(1);
    expect(inner?.calls).toEqual(['send one', 'send two']);
  });

  it('a module that cannot be loaded: `error` with the reason, start resolves, sends fail transient, stop works', async () => {
    const { context } = harness();
    const adapter = lazyAdapter(
      context,
      options({
        load: async () => {
          throw new Error("Cannot find package 'demo-sdk'");
        },
      }),
    );
    await adapter.start(sink);
    expect(adapter.status()).toMatchObject({
      state: 'error',
      error: "its adapter could not be loaded: Cannot find package 'demo-sdk'",
    });
    expect(await adapter.send({ chatId: 'c', text: 'x', formatted: true })).toMatchObject({
      ok: false,
      error: 'transient',
      message: expect.stringContaining("Cannot find package 'demo-sdk'"),
    });
    // a second start (a cluster lease taken again) says the same
    await adapter.start(sink);
    expect(adapter.status().state).toBe('error');
    await adapter.stop();
    expect(adapter.status().state).toBe('stopped');
  });

  it.each([
    ['its methods', { methods: ['edit', 'react'] as const }, 'it has the methods [edit], not [edit, react]'],
    ['its capabilities', { capabilities: { ...CAPABILITIES, maxMessageLength: 50 } }, 'its capabilities differ'],
    ['holdsConnection', { holdsConnection: true }, 'holdsConnection differs'],
    [
      'a route it does not add',
      {
        routes: [
          { method: 'POST' as const, path: '/hook' },
          { method: 'GET' as const, path: '/other' },
        ],
      },
      'it did not add the declared route GET /other',
    ],
  ])('a loaded adapter that differs from its declaration (%s) is `error` saying what differs', async (_label, declared, problem) => {
    const { context } = harness();
    const adapter = lazyAdapter(context, options({ ...declared, load: async (c) => innerAdapter(c).adapter }));
    await adapter.start(sink);
    expect(adapter.status()).toMatchObject({ state: 'error', error: expect.stringContaining(problem) });
  });

  it('a route the loaded adapter adds without declaring it fails the load', async () => {
    const { context } = harness();
    const adapter = lazyAdapter(context, options({ routes: [], load: async (c) => innerAdapter(c).adapter }));
    await adapter.start(sink);
    expect(adapter.status()).toMatchObject({
      state: 'error',
      error: expect.stringContaining('route POST /hook was not declared'),
    });
  });

  it('stopped while loading: the adapter is not started; a later start starts it', async () => {
    const { context } = harness();
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let inner: ReturnType<typeof innerAdapter> | undefined;
    const adapter = lazyAdapter(
      context,
      options({
        load: async (c) => {
          await gate;
          inner = innerAdapter(c);
          return inner.adapter;
        },
      }),
    );
    const starting = adapter.start(sink);
    expect(adapter.status().state).toBe('connecting');
    const stopping = adapter.stop();
    release();
    await Promise.all([starting, stopping]);
    expect(inner?.calls).toEqual(['stop']);
    await adapter.start(sink);
    expect(inner?.calls).toEqual(['stop', 'start']);
    expect(adapter.status().state).toBe('connected');
  });
});
