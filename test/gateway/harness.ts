// Builds an in-process gateway on a temp state.db, the fake OpenAI server and a memory platform.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type MemoryManager, ModelClient, type SkillCommands, ToolRegistry, type TurnConfig } from '@hermes/agent';
import { Gateway, type GatewaySettings, type GatewayStore } from '@hermes/gateway';
import { HookBus } from '@hermes/plugins';
import { silentLogger } from '@hermes/protocol';
import { openStore, type Store } from '@hermes/store';
import type { FakeOpenAI } from '../fakes/openai-server.js';
import { sqliteGatewayStore } from '../helpers/gateway-store.js';
import { type MemoryPlatform, memoryPlatform } from './memory-platform.js';

export interface Harness {
  gateway: Gateway;
  tools: ToolRegistry;
  store: Store;
  hooks: HookBus;
  platform: MemoryPlatform;
  dbPath: string;
  stop(): Promise<void>;
}

export async function startHarness(
  fake: FakeOpenAI,
  options: {
    env?: Record<string, string>;
    settings?: Partial<GatewaySettings>;
    /** the turns' settings over the harness's (test-model, 5 iterations, every toolset) */
    turn?: Partial<TurnConfig>;
    dbPath?: string;
    platform?: MemoryPlatform;
    hooks?: HookBus;
    /** false: the gateway is built but not started (the test calls start() or launch()) */
    start?: boolean;
    /** memory around each turn, built on the harness's store and tools */
    memory?: (store: Store, tools: ToolRegistry) => MemoryManager;
    /** skills invocable as `/name` */
    skills?: SkillCommands;
    pluginCommands?: Map<string, { description: string; handler: (args: string) => unknown }>;
    /** wraps the gateway's store (e.g. a slower, network-like backend) */
    wrapStore?: (store: GatewayStore) => GatewayStore;
  } = {},
): Promise<Harness> {
  const dbPath = options.dbPath ?? join(mkdtempSync(join(tmpdir(), 'hermes-gw-')), 'state.db');
  const store = openStore(dbPath);
  const hooks = options.hooks ?? new HookBus({ timeoutMs: 300 });
  const platform = options.platform ?? memoryPlatform();
  const client = new ModelClient({ baseUrl: fake.url, apiKey: '', timeoutMs: 5_000, maxRetries: 0, hooks });
  const tools = new ToolRegistry();
  const memory = options.memory?.(store, tools);
  const gateway = new Gateway({
    settings: {
      turn: {
        model: 'test-model',
        maxIterations: 5,
        toolTimeoutMs: 5_000,
        toolsets: ['*'],
        cwd: process.cwd(),
        ...options.turn,
      },
      busyMode: 'interrupt',
      maxConcurrentRuns: 4,
      freeResponseChats: [],
      groupSessions: 'per_user',
      resetPolicy: { mode: 'none', idle_minutes: 60, at_hour: 4 },
      platformSettings: {},
      cacheDir: join(dirname(dbPath), 'cache'), // this harness's own: a media sweep never meets another file's
      ...options.settings,
    },
    env: { MEMORY_ALLOWED_USERS: 'u1', ...options.env },
    logger: silentLogger,
    hooks,
    tools,
    client,
    store: options.wrapStore ? options.wrapStore(sqliteGatewayStore(store)) : sqliteGatewayStore(store),
    platforms: [platform.factory],
    pluginCommands: () => options.pluginCommands ?? new Map(),
    pluginSummary: () => 'Plugins (0):',
    setHomeChannel: () => {},
    ...(memory ? { memory } : {}),
    ...(options.skills ? { skills: options.skills } : {}),
  });
  if (options.start !== false) await gateway.start();
  return {
    gateway,
    tools,
    store,
    hooks,
    platform,
    dbPath,
    async stop() {
      await gateway.stop(0);
      store.close();
    },
  };
}
