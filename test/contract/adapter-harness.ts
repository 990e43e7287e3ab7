// One adapter harness for every platform: a fake platform server, an in-memory PlatformContext
// (recording logger, memory state, the gateway's commands, a route table), and adapters made on
// it that close() stops. Per-platform tests (plugins/platforms/*/test/harness.ts) and the contract
// drivers (test/contract/drivers) describe their platform with an AdapterHarnessSpec.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PlatformAdapter, PlatformContext, RouteRequest, RouteResponse } from '@hermes/protocol';
import { type LogLine, memoryState, recordingLogger } from './recorders.js';

export type RouteHandler = (request: RouteRequest) => Promise<RouteResponse>;

/** The commands a gateway with no plugins announces. */
export const GATEWAY_COMMANDS: readonly { name: string; description: string }[] = [
  { name: 'help', description: 'list the commands' },
  { name: 'new', description: 'start a fresh session' },
  { name: 'queue', description: '/queue TEXT: answer TEXT after the running turn' },
];

export interface AdapterOptions<Deps> {
  /** merged over the spec's settings */
  settings?: Record<string, unknown>;
  state?: PlatformContext['state'];
  deps?: Deps;
  /** the gateway's command list (default: the spec's, else GATEWAY_COMMANDS) */
  commands?: readonly { name: string; description: string }[];
  /** merged over the spec's env */
  env?: Record<string, string>;
}

/** What a platform tells the harness about itself. */
export interface AdapterHarnessSpec<Fake extends { close(): Promise<void> }, Deps> {
  platform: string;
  fake: Fake;
  /** credentials (pointing at the fake) */
  env: Record<string, string>;
  /** settings every adapter gets (the fake's URL, short timeouts) */
  settings: Record<string, unknown>;
  commands?: readonly { name: string; description: string }[];
  /** false: context.route throws (a platform with no HTTP intake) */
  routes?: boolean;
  /** the real factory's create, with test seams; the harness adds `sleep: async () => {}` */
  create(context: PlatformContext, deps: Deps): PlatformAdapter;
  /** test seams every adapter gets unless the test passes its own */
  deps?: Deps;
}

export interface AdapterHarness<Fake, Deps> {
  fake: Fake;
  cacheDir: string;
  lines: LogLine[];
  routes: Map<string, RouteHandler>;
  /** builds a context on the fake */
  context(options?: AdapterOptions<Deps>): PlatformContext;
  /** an adapter on the fake, stopped by close() */
  adapter(options?: AdapterOptions<Deps>): PlatformAdapter;
  /** the handler the adapter added for `POST path` */
  route(path: string): RouteHandler;
  /** stops every adapter made, removes the cache folder, closes the fake */
  close(): Promise<void>;
}

/** Wraps a started fake in a harness that hands out adapters wired to it. */
export function adapterHarness<Fake extends { close(): Promise<void> }, Deps>(
  spec: AdapterHarnessSpec<Fake, Deps>,
): AdapterHarness<Fake, Deps> {
  const cacheDir = mkdtempSync(join(tmpdir(), `hermes-${spec.platform}-`));
  const { logger, lines } = recordingLogger();
  const routes = new Map<string, RouteHandler>();
  const adapters: PlatformAdapter[] = [];
  const context = (options: AdapterOptions<Deps> = {}): PlatformContext => ({
    settings: { ...spec.settings, ...options.settings },
    env: { ...spec.env, ...options.env },
    logger,
    cacheDir,
    state: options.state ?? memoryState(),
    commands: () => options.commands ?? spec.commands ?? GATEWAY_COMMANDS,
    route: (method, path, handler) => {
      if (spec.routes === false) throw new Error(`${spec.platform} adds no HTTP routes`);
      const key = `${method} ${path}`;
      if (routes.has(key)) throw new Error(`route ${key} registered twice`);
      routes.set(key, handler);
    },
  });
  return {
    fake: spec.fake,
    cacheDir,
    lines,
    routes,
    context,
    adapter(options = {}) {
      const deps = { sleep: async () => {}, ...spec.deps, ...options.deps } as Deps;
      const adapter = spec.create(context(options), deps);
      adapters.push(adapter);
      return adapter;
    },
    route(path) {
      const handler = routes.get(`POST ${path}`);
      if (handler === undefined) throw new Error(`no route POST ${path}`);
      return handler;
    },
    async close() {
      await Promise.all(adapters.map((adapter) => adapter.stop()));
      await spec.fake.close();
      rmSync(cacheDir, { recursive: true, force: true });
    },
  };
}
