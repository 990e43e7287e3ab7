// @hermes/protocol: types, the hook table and error codes. No runtime dependencies.

// Crash-safe file replacement (temporary sibling, fsync, rename)
export {
  type ActionButton,
  type ActionPress,
  type ActionPressResult,
  actionButtonData,
  type ButtonMessage,
  parseActionButtonData,
} from './action-buttons.js';
export { AGENT_TERMINAL_MARKER } from './agent-terminal.js';
export {
  APPROVAL_ANSWERS,
  APPROVAL_LABELS,
  type ApprovalAnswer,
  type ApprovalPress,
  type ApprovalPressResult,
  type ApprovalPromptMessage,
  approvalButtonData,
  parseApprovalButtonData,
} from './approval-prompt.js';
export { NEW_FILE_MODE, writeFileAtomicSync } from './atomic-write.js';
export {
  answerBytes,
  type BufferedAnswer,
  bufferedExchange,
  type Dispatching,
  type ExchangeHandler,
  type ExchangeRequest,
  type ExchangeStop,
} from './buffered-exchange.js';
// Chat messages (OpenAI shapes)
export type { ChatMessage, ChatRole, ToolCall } from './chat.js';
// The clarify tool's question and answer
export {
  CLARIFY_MAX_CHOICE_CHARS,
  CLARIFY_MAX_CHOICES,
  CLARIFY_MAX_QUESTION_CHARS,
  type ClarifyAnswer,
  type ClarifyPrompt,
  type ClarifyQuestion,
  readClarifyReply,
} from './clarify.js';
export type { ContextCompression, ContextEngine, ContextEngineInput } from './context-engine.js';
// What pre_gateway_dispatch hands a plugin
export type { DispatchGateway, DispatchHandles, DispatchSessionStore } from './dispatch-handles.js';
// "Did you mean": the edit distance every suggestion uses
export { editDistance } from './edit-distance.js';
// Errors and exit codes
export { ERROR_CODES, type ErrorCode, EXIT, HermesError, type HermesErrorOptions } from './errors.js';
// process.exit kept for Hermes itself
export { ExitRefusedError, exitProcess, installExitGuard } from './exit-guard.js';
// Gateway events: THE table and what derives from it
export {
  type CommandEventType,
  GATEWAY_EVENT_EXAMPLES,
  GATEWAY_EVENT_PREFIXES,
  GATEWAY_EVENT_WILDCARDS,
  GATEWAY_EVENTS,
  type GatewayEventContext,
  type GatewayEventContexts,
  type GatewayEventName,
  type GatewayEventPayload,
  type GatewayEventType,
  gatewayEventExample,
  gatewayEventMatches,
  isGatewayEventPattern,
  isGatewayEventType,
} from './gateway-events.js';
// Gateway hooks: what a handler receives
export type {
  GatewayHookApi,
  GatewayHookHandler,
  HookAgentResult,
  HookSendResult,
  TrustedFile,
} from './gateway-hooks.js';
// The hook table
export {
  type ApprovalChoice,
  type ApprovalPayload,
  type ApprovalSurface,
  type BlockDecision,
  type DispatchDecision,
  defineHook,
  HOOK_NAMES,
  HOOKS,
  type HookCallback,
  type HookExample,
  type HookFieldDoc,
  type HookFields,
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
  type SessionFinalizeReason,
  type SubagentStatus,
  type ToolCallPayload,
} from './hooks.js';
// A user identity `<platform>:<userId>` and the turn's user (users apart)
export {
  API_IDENTITY,
  CLI_IDENTITY,
  identityKey,
  isIdentityKey,
  safeIdentityName,
  splitIdentity,
  type TurnUser,
} from './identity.js';
export type { GeneratedImage, ImageGenProvider, ImageGenRequest } from './image-gen.js';
// Logging surface
export { type LogFn, type Logger, silentLogger } from './logger.js';
export { isLoopbackHost } from './loopback.js';
// Memory providers (plugins/memory/<name>/)
export type {
  MemoryProvider,
  MemoryProviderTool,
  MemorySession,
  MemorySessionEnd,
  MemoryTurnEnd,
  MemoryTurnStart,
} from './memory-provider.js';
// Inbound messages
export type {
  Attachment,
  ChatType,
  MediaMessageEvent,
  MessageEvent,
  SessionSource,
  TextMessageEvent,
} from './message-event.js';
// Model provider profiles (ctx.registerModelProvider)
export type { ModelProviderProfile } from './model-provider.js';
// Platforms
export {
  type DownloadGate,
  definePlatform,
  type EditMessage,
  type InboundSink,
  type MediaCapabilities,
  type OutboundMedia,
  type OutboundMessage,
  type PlatformAdapter,
  type PlatformCapabilities,
  type PlatformConnection,
  type PlatformContext,
  type PlatformEnv,
  type PlatformFactory,
  type PlatformRegistration,
  type PlatformSettings,
  type PlatformState,
  type Reaction,
  type RouteOptions,
  type RouteRequest,
  type RouteResponse,
  type SendErrorKind,
  type SendRate,
  type SendRateLimits,
  type SendResult,
  type WebIdentity,
} from './platform.js';
// THE session-key space: every surface's keys, named once
export { type GroupSessions, platformOfKey, SESSION_KEYS, sessionKeyFor } from './session-keys.js';
// Full-text search over stored transcripts (the store answers, session_search asks)
export type { SessionSearchHit, SessionSearchOptions } from './session-search.js';
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
  ToolImage,
  ToolSchema,
} from './tools.js';
export { enablesTool, selectsTool } from './tools.js';
// Text to speech (ctx.registerTtsProvider: voice answers)
export type { SynthesizedSpeech, TtsFormat, TtsProvider, TtsRequest } from './tts.js';
// THE surface × stage table: the typed job every surface submits and the plan of its stages
export {
  planFor,
  STATELESS_SESSION,
  type StagePlan,
  SURFACE_PLANS,
  SURFACES,
  type Surface,
  TURN_STAGES,
  type TurnInput,
  type TurnJob,
  type TurnPlan,
  type TurnStage,
  type TurnWho,
  turnPlanTable,
} from './turn-plan.js';
// Video generation (ctx.registerVideoGenProvider)
export type { GeneratedVideo, VideoGenProvider, VideoGenRequest } from './video-gen.js';
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
