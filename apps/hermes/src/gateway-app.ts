/**
 * `hermes gateway run`'s assembly: the agent runtime from HERMES_HOME (config, logger, state, hooks,
 * tools, plugins, model), then `buildGateway(config, parts)` of @hermes/gateway with what only the
 * CLI knows: the hook consent, the console's data ports, the state store's backend (a cluster on
 * PostgreSQL), the platform token claims, `.env` writes and the retention prune. Build is separate
 * from listen, so tests run whole gateways in-process.
 */
import { BUILTIN_COMMANDS, type BuiltGateway, buildGateway, GatewayMetrics } from '@hermes/gateway';
import type { PlatformFactory } from '@hermes/protocol';
import { firstLine } from './console-lines.js';
import { consoleOptions } from './console-setup.js';
import { writeDotEnvValue } from './dotenv-write.js';
import { approvedHomeHooks } from './gateway-hook-consent.js';
import { gatewayStoreFor } from './gateway-store-setup.js';
import type { GlobalOptions } from './main.js';
import { outboundMediaOptions, speechSynthesizer } from './media-setup.js';
import { pluginAliases } from './plugin-sources.js';
import { pluginSummary } from './plugin-summary.js';
import { SkillCommandsSlot } from './reload/skill-commands-slot.js';
import { startRetention } from './retention.js';
import { type AgentRuntime, createAgentRuntime } from './runtime.js';
import { platformClaimer } from './service/platform-claims.js';
import { surfaceSkillCommands } from './skills-setup.js';
import { StartupPhases } from './startup-phases.js';
import { scriptConsent } from './trust/script-items.js';
import { trustedFiles } from './trust/trust-gate.js';
import { runtimeTurnConfig } from './turn-setup.js';
import { VERSION } from './version.js';

export { KEYLESS_WARNING } from '@hermes/gateway';

export interface GatewayApp extends BuiltGateway {
  rt: AgentRuntime;
  /** the chats' `/skill-name` commands (a reload swaps the catalog behind them) */
  skillCommands: SkillCommandsSlot;
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
  const { config, env } = rt;
  if (options.yolo === true) {
    // said once at start: every dangerous command of every chat now runs unasked
    rt.logger.warn(YOLO_WARNING);
    process.stderr.write(`hermes: warning: ${YOLO_WARNING}\n`);
  }
  // registerPlatform checked each registration's shape: a broken one failed its plugin's register()
  const platforms: PlatformFactory[] = [...rt.registries.platforms.values()].map((reg) => reg.factory);
  const taken = (name: string) => name in BUILTIN_COMMANDS || rt.registries.commands.has(name);
  const skills = new SkillCommandsSlot(
    surfaceSkillCommands(rt.skills, taken, 'chats', rt.logger.child({ component: 'skills' })),
  );
  // the state backend behind the gateway's asynchronous ports; on postgres this process is one
  // instance of a cluster sharing the database
  const { gatewayStore, cluster } = await gatewayStoreFor(rt, metrics);
  const host = env.HERMES_GATEWAY_HOST ?? config.gateway.host;
  const days = config.state.retention_days;
  const built = await buildGateway(config, {
    env,
    sttCommand: localSttCommand(rt),
    home: rt.home,
    logger: rt.logger,
    version: VERSION,
    hooks: rt.hooks,
    tools: rt.tools,
    client: rt.client,
    models: rt.models,
    memory: rt.memory,
    redact: rt.redact,
    turn: runtimeTurnConfig(rt), // an unknown context.engine stops the start
    store: gatewayStore,
    metrics,
    platforms,
    pluginCommands: () => rt.registries.commands,
    pluginSummary: () => pluginSummary(rt.plugins),
    pluginFailures: () =>
      rt.plugins.filter((p) => p.state === 'failed').map((p) => ({ name: p.key, error: firstLine(p.error ?? '') })),
    skills,
    outboundMedia: outboundMediaOptions(rt),
    speech: speechSynthesizer(rt, rt.registries),
    setHomeChannel: (platform, chatId) => {
      const key = `${platform.toUpperCase()}_HOME_CHANNEL`;
      writeDotEnvValue(rt.paths.env, key, chatId);
      process.env[key] = chatId;
      // every instance of the cluster uses it at once (and reads it again when it starts)
      cluster?.node.shareSetting(key, chatId).catch((err: unknown) => rt.logger.error({ err }, `cannot share ${key}`));
    },
    // one machine-wide claim per bot token; in a cluster the platform leases take turns instead
    ...(cluster ? { cluster: cluster.node } : { claimPlatform: platformClaimer(env, rt.home, VERSION) }),
    hookConsent: {
      approve: (discovered, logger) => approvedHomeHooks(rt, discovered, options, logger),
      aliases: pluginAliases(),
      trusted: trustedFiles(rt.home),
    },
    // a cron job's pre-run script runs only as approved (trust.json, read at each run)
    cronScriptConsent: scriptConsent(rt.home),
    console: (gatewayHooks) => consoleOptions(rt, host, gatewayHooks),
    services: [
      {
        start: () =>
          days === undefined ? null : startRetention(rt.store.pruner, days, rt.logger.child({ component: 'state' })),
      },
    ],
    close: () => rt.close(),
    phases,
  });
  return { ...built, rt, skillCommands: skills };
}

/**
 * HERMES_LOCAL_STT_COMMAND, from the operator's environment only: a command line in
 * HERMES_HOME/.env is ignored with a warning (the agent's tools may reach that file; a shell
 * template there would be code nobody approved).
 */
function localSttCommand(rt: AgentRuntime): string | undefined {
  const value = rt.env.HERMES_LOCAL_STT_COMMAND?.trim();
  if (!value) return undefined;
  if (rt.dotenv.HERMES_LOCAL_STT_COMMAND !== undefined) {
    rt.logger.warn(
      `HERMES_LOCAL_STT_COMMAND in ${rt.paths.env} is ignored: set it in the gateway's own environment (the service's, or the shell that starts it)`,
    );
    return undefined;
  }
  return value;
}
