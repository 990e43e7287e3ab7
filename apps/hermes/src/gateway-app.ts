/**
 * Assembles a whole gateway from HERMES_HOME: the agent runtime (config, logger, state, hooks,
 * tools, plugins, model), the platform adapters registered by platform plugins, the pipeline and
 * the HTTP server. Build is separate from listen, so tests run whole gateways in-process.
 */
import { join } from 'node:path';
import { type TurnConfig, warmModelSdk } from '@hermes/agent';
import type { HermesConfig } from '@hermes/config';
import {
  addPlatformRoutes,
  attachGatewayHookThreads,
  BUILTIN_COMMANDS,
  buildServer,
  createSendMessageTool,
  discoverGatewayHooks,
  EventLoopWatchdog,
  Gateway,
  type GatewayHookSpec,
  type GatewayHookThreads,
  GatewayMetrics,
  type GatewayServer,
  type GatewaySettings,
  startMediaCleanup,
  warmSchemaValidator,
} from '@hermes/gateway';
import type { PlatformFactory } from '@hermes/protocol';
import { consoleOptions } from './console-setup.js';
import { cronService } from './cron-setup.js';
import { writeDotEnvValue } from './dotenv-write.js';
import { approvedHomeHooks } from './gateway-hook-consent.js';
import { gatewayStoreFor } from './gateway-store-setup.js';
import type { GlobalOptions } from './main.js';
import { outboundMediaOptions } from './media-setup.js';
import { pluginAliases } from './plugin-sources.js';
import { pluginSummary } from './plugin-summary.js';
import { startRetention } from './retention.js';
import { type AgentRuntime, createAgentRuntime } from './runtime.js';
import { platformClaimer } from './service/platform-claims.js';
import { surfaceSkillCommands } from './skills-setup.js';
import { StartupPhases } from './startup-phases.js';
import { runtimeTurnConfig } from './turn-setup.js';
import { VERSION } from './version.js';
import { withWebChatSwitch } from './web-chat-switch.js';

export interface GatewayApp {
  rt: AgentRuntime;
  gateway: Gateway;
  server: GatewayServer;
  /**
   * Listens on gateway.host:gateway.port (port 0 = any free port) and starts connecting the
   * platforms; resolves with the URL once /health answers 200 (`degraded` until every platform is
   * connected, see `platformsStarted`).
   */
  listen(): Promise<string>;
  /** resolves when every platform's adapter has started (connected or failed) */
  platformsStarted(): Promise<void>;
  /** true when API_SERVER_KEY is not set: the API answers anyone who can reach it (safe on loopback only) */
  keyless: boolean;
  /** graceful stop: no new turns, running ones get up to gateway.drain_timeout_s */
  stop(): Promise<void>;
}

/** The gateway's settings from config.yaml: one mapping for `gateway run`, tests and benchmarks. */
export function gatewaySettings(
  config: HermesConfig,
  run: { turn: TurnConfig; cacheDir: string; platformSettings?: GatewaySettings['platformSettings'] },
): GatewaySettings {
  return {
    turn: run.turn,
    busyMode: config.display.busy_input_mode,
    maxConcurrentRuns: config.gateway.max_concurrent_runs,
    freeResponseChats: config.gateway.free_response_chats,
    groupSessions: config.gateway.group_sessions,
    resetPolicy: config.session_reset,
    platformSettings: run.platformSettings ?? config.gateway.platforms,
    cacheDir: run.cacheDir,
    hookTimeoutMs: config.gateway.hook_timeout_s * 1000,
    media: {
      maxBytes: config.media.max_bytes,
      cacheDays: config.media.cache_days,
      stt: {
        baseUrl: config.stt.base_url ?? config.model.base_url,
        model: config.stt.model,
        apiKey: config.model.api_key,
        timeoutMs: config.stt.timeout_s * 1000,
      },
    },
    approvalTimeoutMs: config.approvals.timeout_s * 1000,
    batchMs: config.gateway.batch_ms,
    display: {
      streaming: config.display.streaming,
      streamIntervalMs: config.display.stream_interval_ms,
      reactions: config.display.reactions,
      toolProgress: config.display.tool_progress,
    },
  };
}

/** Said in the log and on stderr when API_SERVER_KEY is not set. */
export const KEYLESS_WARNING =
  'the API platform is keyless (API_SERVER_KEY is not set): anyone who can reach this port can run the agent; ' +
  'this is only safe on loopback (gateway.host 127.0.0.1)';

/** The longest the model SDK and ajv wait for the platforms' handshakes before they are warmed anyway. */
const WARM_AFTER_MS = 5_000;

/** Loads the model SDK and the schema validator now (both idempotent), so the first message does not wait. */
function warmLazyModules(): void {
  warmModelSdk();
  setImmediate(warmSchemaValidator);
}
/** Said in the log and on stderr when `gateway run --yolo` is given. */
export const YOLO_WARNING =
  '--yolo: dangerous terminal commands run without asking anyone in any chat (no approval prompt, no approval hooks)';

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
    yolo: options.yolo === true,
  });
  const { config, env, store } = rt;
  if (options.yolo === true) {
    // said once at start: every dangerous command of every chat now runs unasked
    rt.logger.warn(YOLO_WARNING);
    process.stderr.write(`hermes: warning: ${YOLO_WARNING}\n`);
  }
  // registerPlatform checked each registration's shape: a broken one failed its plugin's register()
  const platforms: PlatformFactory[] = [...rt.registries.platforms.values()].map((reg) => reg.factory);
  const settings = {
    ...gatewaySettings(config, {
      turn: runtimeTurnConfig(rt), // an unknown context.engine stops the start
      cacheDir: join(rt.home, 'cache', 'media'),
      platformSettings: withWebChatSwitch(
        config.gateway.platforms,
        config.gateway.console.enabled,
        env.HERMES_GATEWAY_HOST ?? config.gateway.host,
      ),
    }),
    outboundMedia: outboundMediaOptions(rt), // answers' MEDIA lines: checked, then sent as attachments
  };
  const taken = (name: string) => name in BUILTIN_COMMANDS || rt.registries.commands.has(name);
  const skills = surfaceSkillCommands(rt.skills, taken, 'chats', rt.logger.child({ component: 'skills' }));
  // the state backend behind the gateway's asynchronous ports; on postgres this process is one
  // instance of a cluster sharing the database
  const { gatewayStore, cluster } = await gatewayStoreFor(rt, metrics);
  const gateway = new Gateway({
    settings,
    env,
    logger: rt.logger.child({ component: 'gateway' }),
    hooks: rt.hooks,
    tools: rt.tools,
    client: rt.client,
    models: rt.models,
    store: gatewayStore,
    platforms,
    pluginCommands: () => rt.registries.commands,
    pluginSummary: () => pluginSummary(rt.plugins),
    // one machine-wide claim per bot token; in a cluster the platform leases take turns instead
    ...(cluster
      ? { launch: cluster.node.launch, sessionGuard: cluster.node.sessionGuard }
      : { claimPlatform: platformClaimer(env, rt.home, VERSION) }),
    metrics,
    redact: rt.redact,
    memory: rt.memory,
    skills,
    setHomeChannel: (platform, chatId) => {
      const key = `${platform.toUpperCase()}_HOME_CHANNEL`;
      writeDotEnvValue(rt.paths.env, key, chatId);
      process.env[key] = chatId;
      // every instance of the cluster uses it at once (and reads it again when it starts)
      cluster?.node.shareSetting(key, chatId).catch((err: unknown) => rt.logger.error({ err }, `cannot share ${key}`));
    },
  });
  rt.tools.register(createSendMessageTool({ gateway, env }));
  const cron = cronService(rt, gateway); // scheduled jobs: started once the platforms have
  cluster?.node.addSingleton('cron', { start: () => cron.start(), stop: () => cron.stop(0) });
  rt.tools.register(cron.tool);
  phases.mark('gateway');
  const { threads: hookThreads, hooks: gatewayHooks } = await attachHomeHooks(rt, gateway, options);
  phases.mark('gateway hooks');
  const host = env.HERMES_GATEWAY_HOST ?? config.gateway.host;
  // the console's hook list: `off` once the worker turned a faulting hook off
  const consoleServer = await consoleOptions(rt, host, () =>
    gatewayHooks.map((h) => ({
      name: h.name,
      events: [...h.events],
      state: hookThreads?.worker.active.includes(h.name) ? 'running' : 'off',
    })),
  );
  const watchdog = new EventLoopWatchdog({
    logger: rt.logger.child({ component: 'watchdog' }),
    onStall: metrics.eventLoopStalled,
  });
  metrics.watchEventLoop(watchdog);
  const server = buildServer(gateway, {
    host,
    eventLoop: watchdog,
    ...(cluster ? { cluster: cluster.node } : {}),
    ...(consoleServer ? { console: { ...consoleServer, logger: rt.logger.child({ component: 'console' }) } } : {}),
    version: VERSION,
    startedAt: Date.now(),
    api: {
      model: settings.turn.model,
      apiKey: env.API_SERVER_KEY || undefined,
      logger: rt.logger.child({ component: 'api' }),
      sessions: gatewayStore.sessions,
      transcripts: gatewayStore.transcripts,
      ...(gatewayStore.apiResponses ? { responses: gatewayStore.apiResponses } : {}),
      redact: rt.redact,
    },
    limits: {
      allowedHosts: config.gateway.allowed_hosts,
      corsOrigins: config.gateway.cors_origins,
      maxConnections: config.gateway.max_connections,
      requestTimeoutMs: config.gateway.request_timeout_s * 1000,
    },
  });
  addPlatformRoutes(server.app, gateway);
  phases.mark('server');
  const keyless = !env.API_SERVER_KEY;
  let retention: { stop(): void } | null = null;
  let platformsUp: Promise<void> = Promise.resolve();
  let stopping = false;
  let warmTimer: NodeJS.Timeout | undefined;
  let mediaCleanup: { stop(): void } | null = null;
  return {
    rt,
    gateway,
    server,
    keyless,
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
      watchdog.start();
      phases.mark('listen');
      if (keyless) rt.logger.warn({ url }, KEYLESS_WARNING);
      // pruned before the platforms connect: no turn is running on a session the prune deletes
      const days = config.state.retention_days;
      if (days !== undefined) retention = startRetention(store.pruner, days, rt.logger.child({ component: 'state' }));
      mediaCleanup = startMediaCleanup(
        settings.cacheDir,
        config.media.cache_days,
        rt.logger.child({ component: 'media' }),
      );
      // healthy from here: listening, the store open, plugins and hooks loaded, the inbox's unfinished
      // rows read; /health says `degraded` until every platform has connected, then `ok`
      const { connected } = gateway.launch();
      server.setState('running');
      phases.mark('platforms launched');
      const startup = phases.summary();
      rt.logger.info(
        { url, platforms: [...gateway.adapters.keys()], startupMs: startup },
        `gateway listening on ${url} (healthy in ${startup.total} ms; platforms connecting)`,
      );
      platformsUp = connected.then(() => {
        if (stopping) return; // stopped while connecting: the log may be closed already
        // in a cluster the scheduler runs on the one instance holding its lease (below)
        if (!cluster)
          void cron.start().catch((err: unknown) => rt.logger.error({ err }, 'the cron scheduler did not start'));
        const ms = Math.round(performance.now());
        rt.logger.info(
          { platforms: gateway.platformStates(), connectedMs: ms },
          `platforms started ${ms} ms after the process did`,
        );
      });
      // loaded lazily so they stay out of the start-up and the platforms' handshakes; loaded once
      // those are done (or after WARM_AFTER_MS, for a platform still retrying) so the first message does not wait
      warmTimer = setTimeout(warmLazyModules, WARM_AFTER_MS).unref();
      void platformsUp.then(() => {
        clearTimeout(warmTimer);
        if (!stopping) warmLazyModules();
      });
      return url;
    },
    platformsStarted: () => platformsUp,
    async stop() {
      stopping = true;
      clearTimeout(warmTimer);
      retention?.stop();
      mediaCleanup?.stop();
      server.setState('draining');
      const drainMs = config.gateway.drain_timeout_s * 1000;
      await Promise.all([cron.stop(drainMs), gateway.stop(drainMs)]);
      await cluster?.node.stop(); // after the drain: the leases go once the platforms have stopped
      await server.app.close();
      await hookThreads?.stop();
      watchdog.stop();
      await rt.close();
    },
  };
}

/** Loads the gateway hooks of HERMES_HOME/hooks (gateway only) and subscribes them to the gateway's events. */
async function attachHomeHooks(
  rt: AgentRuntime,
  gateway: Gateway,
  options: GlobalOptions,
): Promise<{ threads: GatewayHookThreads | null; hooks: readonly GatewayHookSpec[] }> {
  const logger = rt.logger.child({ component: 'hooks' });
  const discovered = discoverGatewayHooks(join(rt.home, 'hooks'));
  for (const s of discovered.skipped)
    logger.warn({ dir: s.dir, code: s.code }, `gateway hook folder skipped: ${s.reason}`);
  const hooks = approvedHomeHooks(rt, discovered.hooks, options, logger);
  if (hooks.length === 0) return { threads: null, hooks };
  const host = {
    home: rt.home,
    logger,
    send: (target: string, text: string) => gateway.hookSend(target, text),
    runAgent: (prompt: string, options: { name: string; maxIterations?: number }) =>
      gateway.runOneShot(prompt, options),
  };
  // in a worker thread: a hook that throws, exits or loops cannot stop or stall the gateway
  const threads = attachGatewayHookThreads(gateway.events, hooks, {
    host,
    logger,
    aliases: pluginAliases(),
    timeoutMs: rt.config.gateway.hook_timeout_s * 1000,
  });
  logger.info(
    { hooks: hooks.map((h) => h.name) },
    `gateway hooks started in their worker thread: ${hooks.map((h) => `${h.name} (${h.events.join(', ')})`).join('; ')}`,
  );
  return { threads, hooks };
}
