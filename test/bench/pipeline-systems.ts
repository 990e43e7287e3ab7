// The two systems the Telegram pipeline benchmark compares, both on the same fake Bot API:
// a bare grammy webhook echo bot on its own Fastify, and a whole in-process Hermes gateway.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ModelClient, ToolRegistry } from '@hermes/agent';
import { defaultConfig } from '@hermes/config';
import { addPlatformRoutes, buildServer, Gateway } from '@hermes/gateway';
import { HookBus } from '@hermes/plugins';
import { silentLogger } from '@hermes/protocol';
import { openStore } from '@hermes/store';
import Fastify from 'fastify';
import { Bot, webhookCallback } from 'grammy';
import { gatewaySettings } from '../../apps/hermes/src/gateway-app.js';
import { telegramFactory } from '../../plugins/platforms/telegram/index.js';
import type { FakeTelegram } from '../fakes/telegram-server.js';
import type { WebhookTarget } from './pipeline-load.js';

export const WEBHOOK_SECRET = 'bench-secret';
/** The Telegram adapter's default webhook path; the bare bot serves the same one. */
export const WEBHOOK_PATH = '/telegram/webhook';

export interface SystemUnderTest {
  target: WebhookTarget;
  /** true when `reply` is this system's answer to a message with text `sent` */
  expect(sent: string, reply: string): boolean;
  close(): Promise<void>;
}

/** grammy's own webhook echo bot: botInfo given (no getMe), `webhookCallback(bot, 'fastify')`. */
export async function startBareGrammy(fake: FakeTelegram): Promise<SystemUnderTest> {
  const bot = new Bot(fake.token, { client: { apiRoot: fake.apiRoot }, botInfo: fake.bot });
  bot.on('message:text', (ctx) => ctx.reply(ctx.message.text));
  const app = Fastify({ logger: false });
  app.post(WEBHOOK_PATH, webhookCallback(bot, 'fastify', { secretToken: WEBHOOK_SECRET }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return {
    target: { name: 'bare grammy', port, path: WEBHOOK_PATH, secret: WEBHOOK_SECRET },
    expect: (sent, reply) => reply === sent,
    close: () => app.close(),
  };
}

export const HERMES_ANSWER = 'echo';

/**
 * Hermes as `gateway run` assembles it, minus plugins and built-in tools: the real store on a temp
 * state.db, HookBus, an empty ToolRegistry, the ModelClient against the fake model, the real
 * Telegram adapter in webhook mode, buildServer + addPlatformRoutes, config defaults elsewhere.
 */
export async function startHermes(fake: FakeTelegram, model: { url: string }): Promise<SystemUnderTest> {
  const config = defaultConfig();
  const dir = mkdtempSync(join(tmpdir(), 'hermes-bench-pipeline-'));
  const cacheDir = join(dir, 'cache', 'attachments');
  mkdirSync(cacheDir, { recursive: true });
  const store = openStore(join(dir, 'state.db'));
  const hooks = new HookBus({ logger: silentLogger, timeoutMs: config.plugins.hook_timeout_ms });
  const tools = new ToolRegistry(silentLogger);
  const client = new ModelClient({
    baseUrl: model.url,
    apiKey: '',
    timeoutMs: config.model.timeout_s * 1000,
    maxRetries: config.agent.api_max_retries,
    hooks,
    logger: silentLogger,
  });
  const env = {
    TELEGRAM_BOT_TOKEN: fake.token,
    TELEGRAM_API_ROOT: fake.apiRoot,
    TELEGRAM_ALLOWED_USERS: '*',
  };
  const settings = gatewaySettings(config, {
    model: 'fake-model',
    cwd: dir,
    cacheDir,
    platformSettings: { telegram: { mode: 'webhook', webhook_secret: WEBHOOK_SECRET } },
  });
  const gateway = new Gateway({
    settings,
    env,
    logger: silentLogger,
    hooks,
    tools,
    client,
    store,
    platforms: [telegramFactory],
    pluginCommands: () => new Map(),
    pluginSummary: () => 'Plugins (0):',
    setHomeChannel: () => {},
  });
  const server = buildServer(gateway, {
    host: '127.0.0.1',
    version: 'bench',
    startedAt: Date.now(),
    api: {
      ...settings,
      apiKey: undefined,
      env,
      client,
      tools,
      hooks,
      logger: silentLogger,
      sessions: store.sessions,
      transcripts: store.transcripts,
    },
  });
  addPlatformRoutes(server.app, gateway);
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  await gateway.start();
  server.setState('running');
  const state = gateway.platformStates().telegram?.state;
  if (state !== 'connected') throw new Error(`hermes: telegram is ${state ?? 'missing'}, not connected`);
  const { port } = server.app.server.address() as AddressInfo;
  return {
    target: { name: 'hermes', port, path: WEBHOOK_PATH, secret: WEBHOOK_SECRET },
    expect: (_sent, reply) => reply === HERMES_ANSWER,
    async close() {
      server.setState('draining');
      await gateway.stop(0);
      await server.app.close();
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
