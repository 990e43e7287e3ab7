// Built-in tools of @hermes/agent; re-exported by the package index.

export { BLOCKED_FLOOR } from './blocked-floor.js';
// Factories
export { type BuiltinToolsOptions, createBuiltinTools } from './builtin-tools.js';
export { CLARIFY_TOOL, clarifyResult, createClarifyTool, readClarifyArgs } from './clarify-tool.js';
export { renderDangerousPatternTable } from './dangerous-pattern-table.js';
// Dangerous commands
export { DANGEROUS_PATTERNS, type DangerousPattern } from './dangerous-patterns.js';
export { createExecuteCodeTool } from './execute-code-tool.js';
// Confinement
export { createFileGuard, defaultFileRoots, type FileGuard, type GuardedPath } from './file-guard.js';
export { hermesHomeCwdMatch, hermesHomePattern } from './hermes-home-patterns.js';
export { type DangerousMatch, matchDangerous } from './match-dangerous.js';
export { createPatchTool } from './patch-tool.js';
export {
  HERMES_HOME_OPEN_DIRS,
  type ProtectedPlaces,
  protectedReason,
  segmentsUnder,
} from './protected-paths.js';
export {
  BINARY_SNIFF_BYTES,
  createReadFileTool,
  type FileToolOptions,
  READ_FILE_DEFAULT_LIMIT_LINES,
  READ_FILE_MAX_CHARS,
} from './read-file-tool.js';
export { probeSandbox, type SandboxProbe } from './sandbox.js';
export { createSearchFilesTool } from './search-files-tool.js';
export { stripAnsi } from './strip-ansi.js';
export { TERMINAL_ENV_ALLOWLIST, terminalEnv } from './terminal-env.js';
// Output helpers
export type { Redactor } from './terminal-output.js';
export {
  createTerminalTool,
  TERMINAL_MAX_OUTPUT_CHARS,
  TERMINAL_MAX_TIMEOUT_MS,
  TERMINAL_MIN_TIMEOUT_MS,
  TERMINAL_TIMEOUT_MS,
  type TerminalToolOptions,
} from './terminal-tool.js';
export { createTodoTool, TodoLists } from './todo-tool.js';
export { callWorkDir, workspaceName, workspacesRoot } from './workspace.js';
export { createWriteFileTool } from './write-file-tool.js';
