import type { ToolDefinition } from '@hermes/protocol';
import { createClarifyTool } from './clarify-tool.js';
import { createExecuteCodeTool } from './execute-code-tool.js';
import type { FileToolOptions } from './file-guard-session.js';
import { createPatchTool } from './patch-tool.js';
import { createReadFileTool } from './read-file-tool.js';
import { createSearchFilesTool } from './search-files-tool.js';
import { createTerminalTool, type TerminalToolOptions } from './terminal-tool.js';
import { createTodoTool } from './todo-tool.js';
import { createWriteFileTool } from './write-file-tool.js';

export interface BuiltinToolsOptions extends TerminalToolOptions, FileToolOptions {}

/**
 * The built-in tools: terminal; read_file, write_file, patch and search_files (toolset `file`),
 * sharing one working directory and one guard; todo (a task list per session); execute_code
 * (a snippet run through the terminal tool); clarify (a question to the user, offered on turns where
 * one can answer).
 */
export function createBuiltinTools(options: BuiltinToolsOptions = {}): ToolDefinition[] {
  const cwd = options.cwd ?? process.cwd();
  const redaction = {
    ...(options.secrets ? { secrets: options.secrets } : {}),
    ...(options.redact ? { redact: options.redact } : {}),
  };
  const terminal = createTerminalTool({ ...options, cwd });
  return [
    terminal,
    createReadFileTool({ ...options, cwd, ...redaction }),
    createWriteFileTool({ ...options, cwd }),
    createPatchTool({ ...options, cwd }),
    createSearchFilesTool({ ...options, cwd, ...redaction }),
    createTodoTool(),
    createExecuteCodeTool({ ...options, cwd, terminal }),
    createClarifyTool(),
  ];
}
