// Memory (the provider around each turn, the builtin provider and its `memory` tool) and `session_search`.
export {
  BUILTIN_MEMORY_PROVIDER,
  type BuiltinMemoryOptions,
  createBuiltinMemoryProvider,
  createMemoryTool,
  DEFAULT_MEMORY_LIMITS,
  MEMORY_TOOL,
  type MemoryLimits,
  renderMemoryBlock,
} from './builtin-provider.js';
export { applyMemoryEdit, type EditOutcome, type MemoryAction, type MemoryEdit, usedChars } from './memory-edit.js';
export {
  ENTRY_SEPARATOR,
  joinEntries,
  LEGACY_USER_FILE,
  MEMORY_FILE,
  MEMORY_TARGETS,
  MemoryFiles,
  type MemoryTarget,
  PROFILES_DIR,
  parseEntries,
} from './memory-files.js';
export {
  MEMORY_CALL_TIMEOUT_MS,
  MEMORY_TOOLSET,
  type MemoryBeforeTurn,
  MemoryManager,
  type MemoryManagerOptions,
  type MemorySnapshots,
} from './memory-manager.js';
export { type ProviderChoice, selectMemoryProvider } from './select-provider.js';
export {
  createSessionSearchTool,
  SESSION_SEARCH_DEFAULT_LIMIT,
  SESSION_SEARCH_MAX_LIMIT,
  SESSION_SEARCH_TOOL,
  type SessionSearchSource,
} from './session-search-tool.js';
