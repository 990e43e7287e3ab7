// A whole in-process Hermes gateway for the benches that drive one in their own process (soak,
// profile-pipeline): startHermesFor builds it for any platform factory, startHermes on a fake
// Telegram Bot API. The pipeline bench runs every system in a process of its own instead
// (process-pipeline.ts; its bare baselines are test/bench/bare/*).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ModelClient, ToolRegistry, turnConfig } from '@hermes/agent';
import { defaultConfig } from '@hermes/config';
import { addPlatformRoutes, buildServer, Gateway, gatewaySettings } from '@hermes/gateway';
import { createRedactor } from '@hermes/logging';
import { HookBus } from '@hermes/plugins';
import { type PlatformFactory, silentLogger } from '@hermes/protocol';
import { openStore, type Store } from '@hermes/store';
import { telegramFactory } from '../../plugins/platforms/telegram/index.js';
import type { FakeTelegram } from '../fakes/telegram-server.js';
import { sqliteGatewayStore } from '../helpers/gateway-store.js';
import type { WebhookTarget } from './pipeline-load.js';

export const WEBHOOK_SECRET = 'bench-secret';
/** gateway.max_concurrent_runs in the pipeline benches (the default is 8) */
export const BENCH_MAX_CONCURRENT_RUNS = 64;
/** The Telegram adapter's default webhook path. */
export const WEBHOOK_PATH = '/telegram/webhook';

export interface SystemUnderTest {
  target: WebhookTarget;
  /** true when `reply` is this system's answer to a message with text `sent` */
  expect(sent: string, reply: string): boolean;
  close(): Promise<void>;
}

export const HERMES_ANSWER = 'echo';

/** A Hermes gateway for a bench: its own server's port and a close that removes its temp state. */
export interface HermesInstance {
  gateway: Gateway;
  /** its state.db (the soak bench seeds long transcripts through it) */
  store: Store;
  /** the gateway's own Fastify (webhook routes, health) on 127.0.0.1 */
  port: number;
  close(): Promise<void>;
}

const CONNECT_TIMEOUT_MS = 10_000;

/** Values a deployment's .env typically holds besides the platform token: each is redacted by value. */
const BENCH_SECRETS = [
  'sk-bench-model-key-0123456789abcdef',
  'ghp_benchPersonalAccessToken0123456789',
  'postgres-password-bench-42',
  'smtp-pass-bench-xyz',
  'https://hooks.example.org/services/T000/B000/XXXXXXXX',
  'brave-search-key-bench-000111',
  'tavily-key-bench-222333',
  'discord-bot-token-bench.abc.def',
];

/**
 * Hermes as `gateway run` assembles it, minus plugins and built-in tools: the real store on a temp
 * state.db, HookBus, an empty ToolRegistry, the ModelClient against the fake model at `modelUrl`,
 * one platform from `factory` with `env` and `settings` (gateway.platforms.<name>),
 * buildServer + addPlatformRoutes, config defaults elsewhere. Resolves once the platform is connected
 * (a gateway-socket platform connects after `gateway.start()` resolves).
 */
export async function startHermesFor(
  factory: PlatformFactory,
  env: Record<string, string>,
  settings: Record<string, unknown>,
  modelUrl: string,
): Promise<HermesInstance> {
  const config = defaultConfig();
  const dir = mkdtempSync(join(tmpdir(), `hermes-bench-${factory.name}-`));
  const cacheDir = join(dir, 'cache', 'media');
  mkdirSync(cacheDir, { recursive: true });
  // as `gateway run` wires it: one redactor over the secrets a deployment has (tokens, keys, .env values)
  const redact = createRedactor([...Object.values(env), ...BENCH_SECRETS]);
  const store = openStore(join(dir, 'state.db'), { redact });
  const hooks = new HookBus({ logger: silentLogger, timeoutMs: config.plugins.hook_timeout_ms });
  const tools = new ToolRegistry(silentLogger, { redact });
  const client = new ModelClient({
    baseUrl: modelUrl,
    apiKey: '',
    timeoutMs: config.model.timeout_s * 1000,
    maxRetries: config.agent.api_max_retries,
    hooks,
    logger: silentLogger,
  });
  const gatewayConfig = {
    ...gatewaySettings(config, {
      turn: turnConfig(config, { model: 'fake-model', cwd: dir }),
      cacheDir,
      platformSettings: { [factory.name]: settings },
    }),
    // as many turns at once as there are chats: the gateway's own run limit (default 8, a guard for
    // local models) is configuration, not pipeline cost; the benches print it
    maxConcurrentRuns: BENCH_MAX_CONCURRENT_RUNS,
  };
  const gatewayStore = sqliteGatewayStore(store);
  const gateway = new Gateway({
    settings: gatewayConfig,
    env,
    logger: silentLogger,
    hooks,
    tools,
    client,
    store: gatewayStore,
    platforms: [factory],
    pluginCommands: () => new Map(),
    pluginSummary: () => 'Plugins (0):',
    setHomeChannel: () => {},
    redact,
  });
  const server = buildServer(gateway, {
    host: '127.0.0.1',
    version: 'bench',
    startedAt: Date.now(),
    api: {
      model: gatewayConfig.turn.model,
      apiKey: undefined,
      logger: silentLogger,
      sessions: gatewayStore.sessions,
      transcripts: gatewayStore.transcripts,
    },
  });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    server.setState('draining');
    await gateway.stop(0);
    await server.app.close();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    addPlatformRoutes(server.app, gateway);
    await server.app.listen({ host: '127.0.0.1', port: 0 });
    await gateway.start();
    server.setState('running');
    const deadline = performance.now() + CONNECT_TIMEOUT_MS;
    for (;;) {
      const state = gateway.platformStates()[factory.name]?.state;
      if (state === 'connected') break;
      if (performance.now() > deadline) {
        throw new Error(`hermes: ${factory.name} is ${state ?? 'missing'}, not connected`);
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } catch (error) {
    await close();
    throw error;
  }
  const { port } = server.app.server.address() as AddressInfo;
  return { gateway, store, port, close };
}

/** Hermes with the real Telegram adapter in webhook mode on `fake` (see startHermesFor). */
export async function startHermes(fake: FakeTelegram, model: { url: string }): Promise<SystemUnderTest> {
  const env = {
    TELEGRAM_BOT_TOKEN: fake.token,
    TELEGRAM_API_ROOT: fake.apiRoot,
    TELEGRAM_ALLOWED_USERS: '*',
  };
  const hermes = await startHermesFor(
    telegramFactory,
    env,
    { mode: 'webhook', webhook_secret: WEBHOOK_SECRET },
    model.url,
  );
  return {
    target: { name: 'hermes', port: hermes.port, path: WEBHOOK_PATH, secret: WEBHOOK_SECRET },
    expect: (_sent, reply) => reply === HERMES_ANSWER,
    close: hermes.close,
  };
}
