// An in-process gateway for the contract suite: the real Gateway, store (SQLite on a temp file),
// HookBus, ModelClient against the fake OpenAI server, Fastify on 127.0.0.1 with the platform's
// webhook routes, and one platform from a contract driver. Restartable on the same state.db.
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ModelClient, type SpeechSynthesizer, ToolRegistry, turnConfig } from '@hermes/agent';
import { defaultConfig } from '@hermes/config';
import {
  addPlatformRoutes,
  buildServer,
  DISPLAY_DEFAULTS,
  type DisplaySettings,
  Gateway,
  gatewaySettings,
} from '@hermes/gateway';
import { HookBus } from '@hermes/plugins';
import { silentLogger, type ToolDefinition } from '@hermes/protocol';
import { openStore, type Store } from '@hermes/store';
import type { FakeOpenAI } from '../fakes/openai-server.js';
import { sqliteGatewayStore } from '../helpers/gateway-store.js';
import type { ContractUser, PlatformDriver } from './driver.js';

export interface ContractGateway {
  gateway: Gateway;
  /** the gateway's HERMES_HOME (a temp folder): nothing under it but cache/ is sent as media */
  home: string;
  store: Store;
  dbPath: string;
  url: string;
  /** the gateway's tool registry (empty: a scenario registers what it needs) */
  tools: ToolRegistry;
  stop(): Promise<void>;
}

/** Builds and starts a gateway with the driver's platform; `dbPath` reuses a state.db (restart). */
export async function startContractGateway(
  driver: PlatformDriver,
  model: FakeOpenAI,
  options: {
    allowed: ContractUser[];
    dbPath?: string;
    mediaMaxBytes?: number;
    tools?: (home: string) => ToolDefinition[];
    batchMs?: number;
    approvalTimeoutMs?: number;
    display?: Partial<DisplaySettings>;
    /** voice answers: the synthesizer, and the mode of every chat (tts.voice_answers) */
    voice?: { speech: SpeechSynthesizer; mode: 'auto' | 'on' | 'off' };
  },
): Promise<ContractGateway> {
  const dir = mkdtempSync(join(tmpdir(), `hermes-contract-${driver.platform}-`));
  const dbPath = options.dbPath ?? join(dir, 'state.db');
  const store = openStore(dbPath);
  const defaults = defaultConfig();
  // the transcription endpoint (stt.base_url) defaults to the model's: the fake answers both
  const config = {
    ...defaults,
    model: { ...defaults.model, base_url: model.url },
    media: { ...defaults.media, ...(options.mediaMaxBytes === undefined ? {} : { max_bytes: options.mediaMaxBytes }) },
  };
  const hooks = new HookBus({ logger: silentLogger, timeoutMs: 1_000 });
  const tools = new ToolRegistry(silentLogger);
  for (const tool of options.tools?.(dir) ?? []) tools.register(tool);
  const client = new ModelClient({
    baseUrl: model.url,
    apiKey: '',
    timeoutMs: 10_000,
    maxRetries: 0,
    hooks,
    logger: silentLogger,
  });
  const env = driver.env(options.allowed);
  const base = {
    ...gatewaySettings(config, {
      turn: turnConfig(config, { model: 'contract-model', cwd: dir }),
      cacheDir: join(dir, 'cache'),
      platformSettings: { [driver.platform]: driver.settings() },
    }),
    // outbound media as `gateway run` sets it up, with the temp folder as HERMES_HOME
    outboundMedia: {
      hermesHomes: [dir],
      downloadDir: join(dir, 'cache', 'media', 'outbound'),
      maxBytes: 20 * 1024 * 1024,
    },
    // messages are not batched unless a scenario asks (it tests batching itself)
    batchMs: options.batchMs ?? 0,
    ...(options.approvalTimeoutMs === undefined ? {} : { approvalTimeoutMs: options.approvalTimeoutMs }),
    ...(options.voice ? { voiceAnswers: options.voice.mode } : {}),
  };
  const settings = options.display
    ? { ...base, display: { ...DISPLAY_DEFAULTS, ...base.display, ...options.display } }
    : base;
  const gatewayStore = sqliteGatewayStore(store);
  const gateway = new Gateway({
    settings,
    env,
    logger: silentLogger,
    hooks,
    tools,
    client,
    store: gatewayStore,
    platforms: [driver.factory],
    pluginCommands: () => new Map(),
    pluginSummary: () => 'Plugins (0):',
    setHomeChannel: () => {},
    ...(options.voice ? { speech: options.voice.speech } : {}),
  });
  const server = buildServer(gateway, {
    host: '127.0.0.1',
    version: 'contract',
    startedAt: Date.now(),
    api: {
      model: settings.turn.model,
      apiKey: undefined,
      logger: silentLogger,
      sessions: gatewayStore.sessions,
      transcripts: gatewayStore.transcripts,
    },
  });
  addPlatformRoutes(server.app, gateway);
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = server.app.server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  driver.useGatewayUrl(url);
  await gateway.start();
  server.setState('running');
  let stopped = false;
  return {
    gateway,
    home: dir,
    store,
    dbPath,
    url,
    tools,
    async stop() {
      if (stopped) return;
      stopped = true;
      server.setState('draining');
      await gateway.stop(0);
      await server.app.close();
      store.close();
    },
  };
}
