/**
 * Assembles a whole gateway from HERMES_HOME: the agent runtime (config, logger, state, hooks,
 * tools, plugins, model), the platform adapters registered by platform plugins, the pipeline and
 * the HTTP server. Build is separate from listen, so tests run whole gateways in-process.
 */
import { join } from 'node:path';
import { warmModelSdk } from '@hermes/agent';
import type { HermesConfig } from '@hermes/config';
import {
  addPlatformRoutes,
  attachGatewayHooks,
  buildServer,
  createSendMessageTool,
  discoverGatewayHooks,
  Gateway,
  GatewayMetrics,
  type GatewayServer,
  type GatewaySettings,
  hookApi,
  loadGatewayHooks,
} from '@hermes/gateway';
import { createModuleImporter } from '@hermes/plugins';
import type { PlatformFactory } from '@hermes/protocol';
import { writeDotEnvValue } from './dotenv-write.js';
import type { GlobalOptions } from './main.js';
import { pluginAliases } from './plugin-sources.js';
import { pluginSummary } from './plugin-summary.js';
import { type AgentRuntime, createAgentRuntime } from './runtime.js';
import { platformClaimer } from './service/platform-claims.js';
import { StartupPhases } from './startup-phases.js';
import { VERSION } from './version.js';

export interface GatewayApp {
  rt: AgentRuntime;
  gateway: Gateway;
  server: GatewayServer;
  /** listens on gateway.host:gateway.port (port 0 = any free port); resolves with the URL */
  listen(): Promise<string>;
  /** graceful stop: no new turns, running ones get up to gateway.drain_timeout_s */
  stop(): Promise<void>;
}

function isPlatformFactory(value: unknown): value is PlatformFactory {
  const f = value as Partial<PlatformFactory> | null;
  return (
    typeof f === 'object' && f !== null && typeof f.create === 'function' && typeof f.hasCredentials === 'function'
  );
}

/** The gateway's settings from config.yaml: one mapping for `gateway run`, tests and benchmarks. */
export function gatewaySettings(
  config: HermesConfig,
  run: { model: string; cwd: string; cacheDir: string; platformSettings?: GatewaySettings['platformSettings'] },
): GatewaySettings {
  return {
    model: run.model,
    systemPrompt: config.agent.system_prompt,
    maxIterations: config.agent.max_iterations,
    toolTimeoutMs: config.agent.tool_timeout_s * 1000,
    toolsets: config.agent.toolsets,
    cwd: run.cwd,
    busyMode: config.display.busy_input_mode,
    maxConcurrentRuns: config.gateway.max_concurrent_runs,
    freeResponseChats: config.gateway.free_response_chats,
    groupSessions: config.gateway.group_sessions,
    resetPolicy: config.session_reset,
    platformSettings: run.platformSettings ?? config.gateway.platforms,
    cacheDir: run.cacheDir,
    hookTimeoutMs: config.gateway.hook_timeout_s * 1000,
  };
}

/** Builds the gateway (adapters created, nothing connected or listening yet). */
export async function buildGatewayApp(
  options: GlobalOptions,
  phases: StartupPhases = new StartupPhases(),
): Promise<GatewayApp> {
  // made first, so the hook bus and the model client built with the runtime report to it
  const metrics = new GatewayMetrics();
  // a daemon never asks: shell hooks without consent are skipped with a warning
  const rt = await createAgentRuntime(options, {
    logFile: 'gateway.log',
    interactive: false,
    console: 'pretty',
    observers: { hooks: metrics.observeHookCallback, model: metrics.observeModelRequest },
    phases,
  });
  const { config, env, store } = rt;
  const platforms: PlatformFactory[] = [];
  for (const reg of rt.registries.platforms.values()) {
    const factory = (reg as { factory?: unknown }).factory;
    if (isPlatformFactory(factory)) platforms.push(factory);
    else
      rt.logger.warn({ plugin: reg.plugin }, `platform ${reg.name} from plugin ${reg.plugin} has no factory; skipped`);
  }
  const settings = gatewaySettings(config, {
    model: rt.model,
    cwd: config.terminal.cwd ?? process.cwd(),
    cacheDir: join(rt.home, 'cache', 'attachments'),
  });
  const gateway = new Gateway({
    settings,
    env,
    logger: rt.logger.child({ component: 'gateway' }),
    hooks: rt.hooks,
    tools: rt.tools,
    client: rt.client,
    store,
    platforms,
    pluginCommands: () => rt.registries.commands,
    pluginSummary: () => pluginSummary(rt.plugins),
    claimPlatform: platformClaimer(env, rt.home, VERSION),
    metrics,
    setHomeChannel: (platform, chatId) => {
      const key = `${platform.toUpperCase()}_HOME_CHANNEL`;
      writeDotEnvValue(rt.paths.env, key, chatId);
      process.env[key] = chatId;
    },
  });
  rt.tools.register(createSendMessageTool({ gateway, env }));
  phases.mark('gateway');
  await attachHomeHooks(rt, gateway);
  phases.mark('gateway hooks');
  const host = env.HERMES_GATEWAY_HOST ?? config.gateway.host;
  const server = buildServer(gateway, {
    host,
    version: VERSION,
    startedAt: Date.now(),
    api: {
      ...settings,
      apiKey: env.API_SERVER_KEY || undefined,
      env,
      client: rt.client,
      tools: rt.tools,
      hooks: rt.hooks,
      logger: rt.logger.child({ component: 'api' }),
      sessions: store.sessions,
      transcripts: store.transcripts,
    },
  });
  addPlatformRoutes(server.app, gateway);
  phases.mark('server');
  return {
    rt,
    gateway,
    server,
    async listen() {
      let url: string;
      try {
        url = await server.app.listen({ host, port: config.gateway.port });
      } catch (err) {
        if ((err as { code?: unknown }).code !== 'EADDRINUSE') throw err;
        throw new Error(
          `port ${config.gateway.port} on ${host} is already in use (another gateway or program): choose another with gateway.port in config.yaml or HERMES_GATEWAY_PORT (0 = any free port)`,
        );
      }
      phases.mark('listen');
      await gateway.start();
      server.setState('running');
      phases.mark('platforms');
      const startup = phases.summary();
      rt.logger.info(
        { url, platforms: [...gateway.adapters.keys()], startupMs: startup },
        `gateway listening on ${url} (started in ${startup.total} ms)`,
      );
      // loaded lazily so it stays out of the start-up; loaded now so the first message does not wait
      warmModelSdk();
      return url;
    },
    async stop() {
      server.setState('draining');
      await gateway.stop(config.gateway.drain_timeout_s * 1000);
      await server.app.close();
      await rt.close();
    },
  };
}

/** Loads the gateway hooks of HERMES_HOME/hooks (gateway only) and subscribes them to the gateway's events. */
async function attachHomeHooks(rt: AgentRuntime, gateway: Gateway): Promise<void> {
  const logger = rt.logger.child({ component: 'hooks' });
  const { hooks, skipped } = discoverGatewayHooks(join(rt.home, 'hooks'));
  for (const s of skipped) logger.warn({ dir: s.dir }, `gateway hook folder skipped: ${s.reason}`);
  if (hooks.length === 0) return;
  const importer = await createModuleImporter(pluginAliases());
  const { loaded } = await loadGatewayHooks(hooks, importer, logger);
  const host = {
    home: rt.home,
    logger,
    send: (target: string, text: string) => gateway.hookSend(target, text),
    runAgent: (prompt: string, options: { name: string; maxIterations?: number }) =>
      gateway.runOneShot(prompt, options),
  };
  attachGatewayHooks(gateway.events, loaded, (hook) => hookApi(host, hook.name));
  logger.info(
    { hooks: loaded.map((h) => h.name) },
    `gateway hooks loaded: ${loaded.map((h) => `${h.name} (${h.events.join(', ')})`).join('; ')}`,
  );
}
