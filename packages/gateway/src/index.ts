// @hermes/gateway: the runner, the HTTP server (health, API platform, webhooks), the pipeline
// stages, session lanes, commands and delivery.

export { type GroupSessions, sessionKeyFor } from '@hermes/protocol';
// Pipeline stages
export { type ChatApprovalPorts, ChatApprovals, DEFAULT_APPROVAL_TIMEOUT_MS } from './approvals/chat-approvals.js';
export {
  BUILTIN_COMMANDS,
  type CommandContext,
  type CommandServices,
  parseCommand,
  runCommand,
} from './commands/commands.js';
// The operator console (session and CSRF checks shared with the web chat)
export * from './console/index.js';
// Delivery
export {
  type DeliveryObserver,
  type DeliveryResult,
  type DeliveryTarget,
  deliver,
  idempotencyKey,
  resendPending,
  type SendFailure,
} from './delivery/deliver.js';
export { extractMediaLines } from './delivery/media/media-lines.js';
export { type MediaSourceOptions, type ResolvedMedia, resolveMedia } from './delivery/media/media-source.js';
export { createSendMessageTool, resolveTarget, type SendMessageDeps } from './delivery/send-message-tool.js';
export { splitMessage } from './delivery/split-message.js';
export {
  eventMatches,
  type GatewayEventHandler,
  GatewayEvents,
  type GatewayEventType,
} from './gateway-hooks/gateway-events.js';
export * from './gateway-hooks/index.js';
export { DISPATCH_REFUSAL } from './http/api-error.js';
export { bearerMatches } from './http/bearer.js';
export { addPlatformRoutes, buildServer, type GatewayServer, isLoopback, type ServerOptions } from './http/server.js';
// The way in for surfaces without an inbox: a job whose sink's outcome is awaited
export { awaitedSink } from './intake/direct-intake.js';
// Metrics (GET /metrics)
export { cleanMediaCache, startMediaCleanup } from './media/cache-cleanup.js';
export {
  formatBytes,
  hasAttachments,
  INLINE_TEXT_MAX_BYTES,
  type MediaSettings,
  type PreparedMessage,
  prepareInbound,
} from './media/inbound-media.js';
export { type SttSettings, TranscriptionError, transcribe } from './media/transcribe.js';
export {
  type EventLoopStatus,
  EventLoopWatchdog,
  type EventLoopWatchdogOptions,
} from './metrics/event-loop-watchdog.js';
export * from './metrics/index.js';
export { allowedByEnv } from './pipeline/allowlist.js';
export { isAddressed } from './pipeline/group-policy.js';
export type { DirectOutcome, DirectSink, DirectTurnJob, LaneJob, StageInput } from './pipeline/input.js';
export { inboxStatus, type PipelineOutcome, type SkipReason } from './pipeline/outcome.js';
export { Gateway } from './runner/gateway.js';
// The gateway and its server
export type { GatewayDeps, GatewayMediaSettings, GatewaySettings } from './runner/gateway-deps.js';
export type { RouteDefinition } from './runner/platform-setup.js';
export { needsReset, type ResetPolicy } from './sessions/reset-policy.js';
export {
  type BusyMode,
  type LaneStats,
  type RunControl,
  SessionLanes,
  type SubmitOutcome,
} from './sessions/session-lanes.js';
// The store as the gateway uses it (every type of it is @hermes/store's)
export { type AdapterState, type GatewayStore, type GatewayStoreOptions, gatewayStore } from './store/gateway-store.js';
export { PlatformStateCache } from './store/platform-state-cache.js';
export {
  type ApiPipeline,
  type ApiPlatformDeps,
  completionJob,
  registerApiPlatform,
} from './surfaces/api/api-platform.js';
// The API platform's request schemas and its other routes (models, responses)
export { listedModels, MODEL_ALIAS, registerModelsRoutes } from './surfaces/api/models-route.js';
export { registerResponsesRoute } from './surfaces/api/responses-route.js';
export {
  bodySchema,
  chatCompletionsBodySchema,
  responsesBodySchema,
  warmSchemaValidator,
  withTextContent,
} from './surfaces/api/schemas.js';
// Scheduled jobs (cron/)
export * from './surfaces/cron/index.js';
export { SILENT_MARKER } from './turn/turn.js';
export { DISPLAY_DEFAULTS, type DisplaySettings } from './turn/turn-display.js';
