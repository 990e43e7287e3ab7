/**
 * A whole gateway from config.yaml and the agent runtime's parts: the `Gateway` (pipeline, lanes,
 * adapters), the `send_message` and `cronjob` tools, the scheduler, the gateway hooks of
 * HERMES_HOME/hooks, the event-loop watchdog, the HTTP server with the platforms' routes, and the
 * lifecycle (`listen`, `stop`). The CLI (`hermes gateway run`) builds the runtime and passes config;
 * tests build whole gateways in-process the same way. Build is separate from listen.
 */
import { join } from 'node:path';
import {
  type MemoryManager,
  type ModelClient,
  type SessionModels,
  type SkillCommands,
  type SpeechSynthesizer,
  type ToolRegistry,
  type TurnConfig,
  warmModelSdk,
} from '@hermes/agent';
import type { HermesConfig } from '@hermes/config';
import type { HookBus } from '@hermes/plugins';
import type { Logger, PlatformFactory } from '@hermes/protocol';
import type { ConsolePluginsPort, ConsoleServerOptions } from '../console/ports.js';
import type { MediaSourceOptions } from '../delivery/media/media-source.js';
import { createSendMessageTool } from '../delivery/send-message-tool.js';
import type { GatewayHookSpec } from '../gateway-hooks/discover.js';
import { attachHomeHooks, type HomeHookOptions } from '../gateway-hooks/home-hooks.js';
import {
  addPlatformRoutes,
  buildServer,
  type GatewayServer,
  type HealthPlatform,
  type PluginFailure,
} from '../http/server.js';
import { startMediaCleanup } from '../media/cache-cleanup.js';
import { EventLoopWatchdog } from '../metrics/event-loop-watchdog.js';
import type { GatewayMetrics } from '../metrics/gateway-metrics.js';
import type { SessionGuard } from '../sessions/session-guard.js';
import type { GatewayStore } from '../store/gateway-store.js';
import { warmSchemaValidator } from '../surfaces/api/schemas.js';
import { cronClock, envClock } from '../surfaces/cron/clock.js';
import { createCronService } from '../surfaces/cron/cron-service.js';
import { machineTimezone } from '../surfaces/cron/schedule.js';
import { scriptsDir } from '../surfaces/cron/script-path.js';
import { Gateway } from './gateway.js';
import type { GatewayDeps } from './gateway-deps.js';
import { gatewaySettings, withWebChatSwitch } from './gateway-settings.js';
import type { LaunchPorts } from './launch.js';

/** Said in the log (and by the CLI on stderr) when API_SERVER_KEY is not set. */
export const KEYLESS_WARNING =
  'the API platform is keyless (API_SERVER_KEY is not set): anyone who can reach this port can run the agent; ' +
  'this is only safe on loopback (gateway.host 127.0.0.1)';

/**
 * The longest the model SDK and ajv wait for the platforms' handshakes before they are warmed
 * anyway, and the event-loop watchdog before it starts anyway.
 */
const WARM_AFTER_MS = 5_000;

/** This process as one instance of a cluster on PostgreSQL (`@hermes/gateway/cluster`'s node). */
export interface GatewayClusterPort {
  launch(ports: LaunchPorts): Promise<void>;
  sessionGuard: SessionGuard;
  addSingleton(name: string, service: { start(): Promise<void>; stop(): Promise<void> }): void;
  status(): Promise<unknown>;
  standby(platform: string): boolean;
  stop(): Promise<void>;
}

/** A service that runs while the gateway listens (started once listening, stopped first at stop). */
export interface GatewayService {
  start(): { stop(): void } | null;
}

/** What the agent runtime built for the gateway, and what the application around it adds. */
export interface GatewayParts {
  env: NodeJS.ProcessEnv;
  /** HERMES_LOCAL_STT_COMMAND from the operator's environment (never from HERMES_HOME/.env) */
  sttCommand?: string | undefined;
  home: string;
  logger: Logger;
  version: string;
  hooks: HookBus;
  tools: ToolRegistry;
  client: ModelClient;
  models?: SessionModels;
  memory?: MemoryManager;
  redact?: (text: string) => string;
  /** the turns' settings (`turnConfig` of @hermes/agent with the runtime's context engines) */
  turn: TurnConfig;
  store: GatewayStore;
  metrics: GatewayMetrics;
  platforms: readonly PlatformFactory[];
  pluginCommands: GatewayDeps['pluginCommands'];
  pluginSummary: () => string;
  /** the enabled plugins that failed to load (/health `degraded`, named in the start line) */
  pluginFailures?: () => readonly PluginFailure[];
  skills?: SkillCommands;
  /** text to speech (tts.*): voice answers in chats */
  speech?: SpeechSynthesizer;
  /** answers' MEDIA lines: checked, then sent as attachments */
  outboundMedia?: MediaSourceOptions;
  setHomeChannel: GatewayDeps['setHomeChannel'];
  /** one machine-wide claim per bot token (alone); absent in a cluster, whose leases take turns */
  claimPlatform?: GatewayDeps['claimPlatform'];
  cluster?: GatewayClusterPort;
  /** the gateway hooks the operator approved (HERMES_HOME/hooks) and the modules they may import */
  hookConsent: Pick<HomeHookOptions, 'approve' | 'aliases' | 'trusted'>;
  /**
   * the sha256 the operator approved for the cron pre-run script `script:<name>` (trust.json, read
   * at each call); absent: no job's pre-run script runs
   */
  cronScriptConsent?: (name: string) => string | undefined;
  /** the console's options given the hook list (null: not served) */
  console?: (gatewayHooks: ConsolePluginsPort['gatewayHooks']) => Promise<ConsoleServerOptions | null>;
  /** started once listening (state.retention_days' prune, ...) */
  services?: readonly GatewayService[];
  /** closes the runtime (store, plugins, MCP): the last step of stop */
  close: () => Promise<void>;
  /**
   * Where start-up time goes: `mark` ends a phase (`gateway`, `gateway hooks`, `server`, `listen`,
   * `platforms launched`), `summary` gives them with `total` for the listening line
   */
  phases?: { mark(phase: string): unknown; summary(): Record<string, number> };
}

export interface BuiltGateway {
  gateway: Gateway;
  server: GatewayServer;
  /** true when API_SERVER_KEY is not set: the API answers anyone who can reach it (safe on loopback only) */
  keyless: boolean;
  /**
   * Listens on gateway.host:gateway.port (port 0 = any free port) and starts connecting the
   * platforms; resolves with the URL once /health answers 200 (`degraded` until every platform is
   * connected, see `platformsStarted`).
   */
  listen(): Promise<string>;
  /** resolves when every platform's adapter has started (connected or failed) */
  platformsStarted(): Promise<void>;
  /** what listens: the chat platforms' adapters and the API platform (`api`, always served) */
  platformNames(): string[];
  /** each platform's state as /health shows it (`standby` where another instance holds it) */
  platformStates(): Record<string, HealthPlatform>;
  /** graceful stop: no new turns, running ones get up to gateway.drain_timeout_s */
  stop(): Promise<void>;
  /**
   * Reads HERMES_HOME/hooks again (a reload): the hooks `consent` approves now start in a new worker
   * thread, then the old thread stops (a handler still running there is cut off); resolves with them.
   */
  reloadHooks(consent: GatewayParts['hookConsent']): Promise<readonly GatewayHookSpec[]>;
  /** the gateway hooks running now (HERMES_HOME/hooks, approved) */
  gatewayHooks(): readonly GatewayHookSpec[];
  /** the cron table changed (the CLI said so): the scheduler, if it runs here, re-reads it now */
  cronChanged(): void;
}

/** Loads the model SDK and the schema validator now (both idempotent), so the first message does not wait. */
function warmLazyModules(): void {
  warmModelSdk();
  setImmediate(warmSchemaValidator);
}

/** Builds the gateway (adapters created, nothing connected or listening yet). */
export async function buildGateway(config: HermesConfig, parts: GatewayParts): Promise<BuiltGateway> {
  const { env, logger, metrics, cluster } = parts;
  const mark = (phase: string) => parts.phases?.mark(phase);
  const host = env.HERMES_GATEWAY_HOST ?? config.gateway.host;
  const settings = {
    ...gatewaySettings(config, {
      turn: parts.turn,
      cacheDir: join(parts.home, 'cache', 'media'),
      platformSettings: withWebChatSwitch(config.gateway.platforms, config.gateway.console.enabled, host),
      sttCommand: parts.sttCommand,
      env,
    }),
    ...(parts.outboundMedia ? { outboundMedia: parts.outboundMedia } : {}),
  };
  const gateway = new Gateway({
    settings,
    env,
    logger: logger.child({ component: 'gateway' }),
    hooks: parts.hooks,
    tools: parts.tools,
    client: parts.client,
    ...(parts.models ? { models: parts.models } : {}),
    store: parts.store,
    platforms: parts.platforms,
    pluginCommands: parts.pluginCommands,
    pluginSummary: parts.pluginSummary,
    ...(cluster ? { launch: (ports) => cluster.launch(ports), sessionGuard: cluster.sessionGuard } : {}),
    ...(!cluster && parts.claimPlatform ? { claimPlatform: parts.claimPlatform } : {}),
    metrics,
    ...(parts.redact ? { redact: parts.redact } : {}),
    ...(parts.memory ? { memory: parts.memory } : {}),
    ...(parts.skills ? { skills: parts.skills } : {}),
    ...(parts.speech ? { speech: parts.speech } : {}),
    setHomeChannel: parts.setHomeChannel,
    limitsNow: envClock(process.env, 'LIMITS').now, // HERMES_LIMITS_CLOCK_*: test-only
  });
  parts.tools.register(createSendMessageTool({ gateway, env }));
  const cron = createCronService({
    gateway,
    jobs: parts.store.cronJobs,
    env,
    settings: {
      // asked when a job needs it: the machine's zone costs ICU's start-up (tens of ms), which a
      // gateway with no cron job never needs to pay
      get timezone() {
        return config.cron.timezone ?? machineTimezone();
      },
      catchUp: config.cron.catch_up,
      maxFailures: config.cron.max_failures,
    },
    clock: cronClock(process.env), // HERMES_CRON_CLOCK_*: test-only
    logger: logger.child({ component: 'cron' }),
    ...(parts.cronScriptConsent
      ? { scripts: { home: parts.home, dir: scriptsDir(parts.home), approved: parts.cronScriptConsent, env } }
      : {}),
  });
  // in a cluster the scheduler runs on the one instance holding its lease
  cluster?.addSingleton('cron', { start: () => cron.start(), stop: () => cron.stop(0) });
  parts.tools.register(cron.tool);
  mark('gateway');
  const attachHooks = (consent: GatewayParts['hookConsent']) =>
    attachHomeHooks({
      ...consent,
      home: parts.home,
      logger: logger.child({ component: 'hooks' }),
      events: gateway.events,
      send: (target, text) => gateway.hookSend(target, text),
      runAgent: (prompt, options) => gateway.runOneShot(prompt, options),
      timeoutMs: config.gateway.hook_timeout_s * 1000,
    });
  let { threads: hookThreads, hooks: gatewayHooks } = attachHooks(parts.hookConsent);
  mark('gateway hooks');
  // the console's hook list: `off` once the worker turned a faulting hook off
  const hookList = () =>
    gatewayHooks.map((h: GatewayHookSpec) => ({
      name: h.name,
      events: [...h.events],
      state: hookThreads?.worker.active.includes(h.name) ? 'running' : 'off',
    }));
  const consoleServer = parts.console ? await parts.console(hookList) : null;
  const watchdog = new EventLoopWatchdog({
    logger: logger.child({ component: 'watchdog' }),
    onStall: metrics.eventLoopStalled,
  });
  metrics.watchEventLoop(watchdog);
  const server = buildServer(gateway, {
    host,
    eventLoop: watchdog,
    ...(cluster ? { cluster } : {}),
    ...(parts.pluginFailures ? { pluginFailures: parts.pluginFailures } : {}),
    ...(consoleServer ? { console: { ...consoleServer, logger: logger.child({ component: 'console' }) } } : {}),
    version: parts.version,
    startedAt: Date.now(),
    api: {
      model: settings.turn.model,
      apiKey: env.API_SERVER_KEY || undefined,
      logger: logger.child({ component: 'api' }),
      sessions: parts.store.sessions,
      transcripts: parts.store.transcripts,
      ...(parts.store.apiResponses ? { responses: parts.store.apiResponses } : {}),
      ...(parts.redact ? { redact: parts.redact } : {}),
    },
    limits: {
      allowedHosts: config.gateway.allowed_hosts,
      corsOrigins: config.gateway.cors_origins,
      maxConnections: config.gateway.max_connections,
      requestTimeoutMs: config.gateway.request_timeout_s * 1000,
      streams: { total: config.gateway.max_streams, perClient: config.gateway.max_streams_per_client },
    },
  });
  addPlatformRoutes(server.app, gateway);
  mark('server');
  const keyless = !env.API_SERVER_KEY;
  const running: { stop(): void }[] = [];
  let platformsUp: Promise<void> = Promise.resolve();
  let stopping = false;
  let warmTimer: NodeJS.Timeout | undefined;
  return {
    gateway,
    server,
    keyless,
    cronChanged() {
      logger.info({ component: 'cron' }, 'cron: the table was changed by hermes cron; re-reading it now');
      cron.scheduler.poke();
    },
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
      mark('listen');
      if (keyless) logger.warn({ url }, KEYLESS_WARNING);
      // before the platforms connect: a prune deletes no session a turn is running on
      for (const service of parts.services ?? []) {
        const started = service.start();
        if (started) running.push(started);
      }
      running.push(startMediaCleanup(settings.cacheDir, config.media.cache_days, logger.child({ component: 'media' })));
      // healthy from here: listening, the store open, plugins and hooks loaded, the inbox's unfinished
      // rows read; /health says `degraded` until every platform has connected, then `ok`
      const { connected } = gateway.launch();
      server.setState('running');
      mark('platforms launched');
      const startup = parts.phases?.summary() ?? {};
      const total = startup.total ?? Math.round(performance.now());
      logger.info(
        { url, platforms: [...gateway.adapters.keys()], startupMs: startup },
        `gateway listening on ${url} (healthy in ${total} ms; platforms connecting)`,
      );
      platformsUp = connected.then(() => {
        if (stopping) return; // stopped while connecting: the log may be closed already
        if (!cluster)
          void cron.start().catch((err: unknown) => logger.error({ err }, 'the cron scheduler did not start'));
        const ms = Math.round(performance.now());
        logger.info(
          { platforms: gateway.platformStates(), connectedMs: ms },
          `platforms started ${ms} ms after the process did`,
        );
      });
      // once the platforms have started (or after WARM_AFTER_MS, for a platform still retrying):
      // - the model SDK and ajv, loaded lazily to stay out of the start-up and the platforms'
      //   handshakes, are loaded so the first message does not wait;
      // - the event-loop watchdog starts: loading the platforms' SDKs (on their start, after
      //   listening) blocks the loop once by design, which is start-up, not a stall of a running gateway
      const started = () => {
        clearTimeout(warmTimer);
        if (stopping) return;
        watchdog.start();
        warmLazyModules();
      };
      warmTimer = setTimeout(started, WARM_AFTER_MS).unref();
      void platformsUp.then(started);
      return url;
    },
    platformsStarted: () => platformsUp,
    gatewayHooks: () => gatewayHooks,
    async reloadHooks(consent) {
      const previous = hookThreads;
      ({ threads: hookThreads, hooks: gatewayHooks } = attachHooks(consent));
      await previous?.stop();
      return gatewayHooks;
    },
    platformNames: () => [...gateway.adapters.keys(), 'api'],
    platformStates: () => server.platformStates(),
    async stop() {
      stopping = true;
      clearTimeout(warmTimer);
      for (const service of running.splice(0)) service.stop();
      server.setState('draining');
      const drainMs = config.gateway.drain_timeout_s * 1000;
      await Promise.all([cron.stop(drainMs), gateway.stop(drainMs)]);
      await cluster?.stop(); // after the drain: the leases go once the platforms have stopped
      await server.app.close();
      await hookThreads?.stop();
      watchdog.stop();
      await parts.close();
    },
  };
}
