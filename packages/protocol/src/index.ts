// @hermes/protocol: types, the hook table and error codes. No runtime dependencies.

// Crash-safe file replacement (temporary sibling, fsync, rename)
export { NEW_FILE_MODE, writeFileAtomicSync } from './atomic-write.js';
// Chat messages (OpenAI shapes)
export type { ChatMessage, ChatRole, ToolCall } from './chat.js';
// "Did you mean": the edit distance every suggestion uses
export { editDistance } from './edit-distance.js';
// Errors and exit codes
export { ERROR_CODES, type ErrorCode, EXIT, HermesError } from './errors.js';
// process.exit kept for Hermes itself
export { ExitRefusedError, exitProcess, installExitGuard } from './exit-guard.js';
export {
  GATEWAY_EVENT_EXAMPLES,
  GATEWAY_EVENTS,
  type GatewayEventContext,
  type GatewayEventContexts,
  type GatewayEventType,
  type GatewayHookApi,
  type GatewayHookHandler,
  type HookAgentResult,
  type HookSendResult,
} from './gateway-hooks.js';
// The hook table
export {
  type ApprovalChoice,
  type ApprovalPayload,
  type ApprovalSurface,
  type BlockDecision,
  type DispatchDecision,
  type DispatchHandles,
  HOOK_NAMES,
  HOOKS,
  type HookCallback,
  type HookFieldDoc,
  type HookKind,
  type HookName,
  type HookOutcome,
  type HookOutcomeByKind,
  type HookPayloads,
  type HookReturn,
  type HookReturnByKind,
  type HookSpec,
  type HookTable,
  isHookName,
  type SubagentStatus,
} from './hooks.js';
// Logging surface
export { type LogFn, type Logger, silentLogger } from './logger.js';
// Inbound messages
export type {
  Attachment,
  ChatType,
  MediaMessageEvent,
  MessageEvent,
  SessionSource,
  TextMessageEvent,
} from './message-event.js';
// Platforms
export type {
  InboundSink,
  OutboundMessage,
  PlatformAdapter,
  PlatformCapabilities,
  PlatformConnection,
  PlatformContext,
  PlatformFactory,
  PlatformState,
  RouteOptions,
  RouteRequest,
  RouteResponse,
  SendErrorKind,
  SendRate,
  SendRateLimits,
  SendResult,
} from './platform.js';
// SIGTERM, a grace period, then SIGKILL
export {
  type Terminable,
  type TerminateOptions,
  type TerminateOutcome,
  terminateThenKill,
} from './terminate-then-kill.js';
// Tools
export type {
  ApprovalRequest,
  HookInvoker,
  ToolContext,
  ToolDefinition,
  ToolHandler,
  ToolHandlerResult,
  ToolSchema,
} from './tools.js';
// Web providers (web_search / web_extract)
export {
  type FetchedWebPage,
  type FetchWebPage,
  type FetchWebPageOptions,
  type MaybePromise,
  WEB_CAPABILITIES,
  type WebCapability,
  type WebContentFormat,
  type WebCrawlOptions,
  type WebExtractOptions,
  type WebExtractResponse,
  type WebExtractSuccess,
  type WebFailure,
  type WebPage,
  type WebSearchHit,
  type WebSearchOptions,
  type WebSearchProvider,
  type WebSearchResponse,
  type WebSearchSuccess,
} from './web.js';
// YAML texts checked before parsing
export { MAX_YAML_NESTING, yamlNestingTooDeep } from './yaml-nesting.js';
