// @hermes/gateway's public surface: what the CLI, the bundled platforms' tests and the end-to-end
// suites use, nothing else (the cluster has its own entry point, `@hermes/gateway/cluster`).

export { ChatApprovals } from './approvals/chat-approvals.js';
export { BUILTIN_COMMANDS, type CommandContext } from './commands/commands.js';
export {
  resumeCommand,
  retryText,
  type SessionCommandPorts,
  sessionsCommand,
  titleCommand,
  undoCommand,
} from './commands/session-commands.js';
export { type UsageCommandPorts, usageCommand } from './commands/usage-command.js';
// The operator console's options (built by the CLI from its runtime)
export { LogRing } from './console/log-ring.js';
export { createLoginLink, LOGIN_LINK_TTL_MS, loginLinksPath } from './console/login-links.js';
export type {
  ConsolePluginsPort,
  ConsoleServerOptions,
  ConsoleTrustPort,
  ConsoleTrustRow,
} from './console/ports.js';
// Delivery (the platforms' send tests) and the send_message tool
export { deliver, idempotencyKey, resendPending } from './delivery/deliver.js';
export type { MediaSourceOptions } from './delivery/media/media-source.js';
export { createSendMessageTool } from './delivery/send-message-tool.js';
// Gateway hooks (HOOK.yaml): `hermes hooks list|install|approve|test`
export {
  approveGatewayHook,
  filterApprovedHooks,
  gatewayHookConsent,
  pendingMessage,
  pendingReason,
} from './gateway-hooks/consent.js';
export { discoverGatewayHooks, type GatewayHookSpec } from './gateway-hooks/discover.js';
export { HookManifestError, parseHookManifest } from './gateway-hooks/manifest.js';
export { testGatewayHooks } from './gateway-hooks/test-hooks.js';
export {
  addPlatformRoutes,
  buildServer,
  type GatewayServer,
  type HealthPlatform,
  isLoopback,
  type PluginFailure,
} from './http/server.js';
// Surfaces without an inbox: a job whose sink's outcome is awaited (the API platform's shape)
export { awaitedSink } from './intake/direct-intake.js';
export { GatewayMetrics } from './metrics/gateway-metrics.js';
export type { DirectOutcome } from './pipeline/input.js';
// The whole gateway from config: what `hermes gateway run` builds
export {
  type BuiltGateway,
  buildGateway,
  type GatewayClusterPort,
  type GatewayParts,
  type GatewayService,
  KEYLESS_WARNING,
} from './runner/build-gateway.js';
// Its parts, for tests that compose a gateway by hand
export { Gateway } from './runner/gateway.js';
export type { GatewayDeps, GatewaySettings } from './runner/gateway-deps.js';
export { gatewaySettings, withWebChatSwitch } from './runner/gateway-settings.js';
export type { RouteDefinition } from './runner/platform-setup.js';
export { type GatewayStore, gatewayStore } from './store/gateway-store.js';
export { PlatformStateCache } from './store/platform-state-cache.js';
export { completionJob } from './surfaces/api/api-platform.js';
// Scheduled jobs: `hermes cron ...` edits jobs without a running gateway
export {
  addJob,
  approveHint,
  type CronScripts,
  type CronService,
  createCronjobTool,
  createCronService,
  cronClock,
  editJob,
  jobJson,
  machineTimezone,
  readScript,
  resumeJob,
  ScheduleError,
  scriptName,
  scriptsDir,
} from './surfaces/cron/index.js';
export { DISPLAY_DEFAULTS, type DisplaySettings } from './turn/turn-display.js';
