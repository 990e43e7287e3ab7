// @hermes/agent: the OpenAI-compatible client, tool registry, the tool loop and built-in tools.

export { type ApprovalGateOptions, type ApprovalPrompt, createApprovalGate } from './approvals.js';
// The browser tool (tools.browser.*): headless Chromium per session behind the SSRF gate
export * from './browser/index.js';
// The context engine (context.*, model.context_length, /compress)
export * from './context/index.js';
export * from './delegate/index.js';
export { summarizeErrorText } from './error-summary.js';
// Tools
export {
  createImageGenerateTool,
  generatedImageLines,
  IMAGE_GENERATE_TOOL,
  type ImageGenToolOptions,
  withGeneratedImages,
} from './image-gen/image-generate-tool.js';
export * from './mcp/index.js';
export * from './memory/index.js';
// Model client
export {
  InterruptedError,
  ModelClient,
  type ModelClientOptions,
  type ModelErrorKind,
  type ModelRequest,
  type ModelRequestObserver,
  type ModelRequestOutcome,
  type ModelStep,
  PLACEHOLDER_API_KEY,
} from './model-client.js';
export { warmModelSdk } from './model-sdk.js';
// Plugin services
export { createPluginLlm, extractJson, type LlmOptions, type OneShotLlm } from './plugin-llm.js';
// Model providers, the per-session model and model.fallback
export * from './providers/index.js';
export { abortableSleep, isRetryableStatus, RETRY_MAX_MS, retryAfterMs, retryDelayMs } from './retry-policy.js';
// The turn
export {
  MAX_ITERATIONS_DEFAULT,
  runTurn,
  TOOL_TIMEOUT_DEFAULT_MS,
  type TokenUsage,
  type TurnOptions,
  type TurnResult,
  type TurnStatus,
} from './run-turn.js';
export {
  type PluginSkill,
  SKILL_INDEX_DESCRIPTION_MAX,
  SKILL_INDEX_MAX,
  SKILL_MAX_CHARS,
  SkillCatalog,
  type SkillCatalogOptions,
} from './skills/skill-catalog.js';
export { type SkillCommands, skillCommandMessage, skillCommands } from './skills/skill-command.js';
export { type ParsedSkill, parseSkillFile, SKILL_KEYS, SKILL_NAME, type SkillParse } from './skills/skill-file.js';
export { listSkillFiles, readSkillFile, SKILL_FILES_MAX } from './skills/skill-files.js';
export {
  type BrokenSkill,
  type LoadedSkills,
  loadSkillsDir,
  SKILL_FILE_MAX_BYTES,
  type SkillEntry,
} from './skills/skill-loader.js';
export { loadTapSkills, loadTapsDir, tapSkillsRoot } from './skills/skill-taps.js';
export { createSkillsListTool, createSkillViewTool } from './skills/skill-view-tool.js';
export { buildSystemPrompt, DEFAULT_SYSTEM_PROMPT } from './system-prompt.js';
export { executeToolCall, serializeResult, toolError } from './tool-executor.js';
export { type AvailabilityOptions, ToolRegistry } from './tool-registry.js';
export * from './tools/index.js';
// Text to speech (tts.*: the gateway's voice answers)
export * from './tts/index.js';
// The turn's settings from config.yaml, one mapping for every surface
export {
  createTurnService,
  reconfigureTurnService,
  type TurnConfig,
  type TurnConfigInputs,
  type TurnConfigSource,
  type TurnServiceDeps,
  turnConfig,
} from './turn-config.js';
export {
  type ServedTurn,
  type TurnApproval,
  type TurnRequest,
  TurnService,
  type TurnServiceSettings,
  type TurnTranscripts,
} from './turn-service.js';
export { type ImageMode, imageNote, type TurnImage, withImageNotes } from './user-content.js';
export { type UserFacingError, userFacingError } from './user-facing-error.js';
export * from './web/index.js';
