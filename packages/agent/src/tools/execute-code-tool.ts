/**
 * The `execute_code` tool: runs a Python, JavaScript (Node) or shell snippet and returns what it
 * printed and its exit code. The snippet is checked as a terminal command is (the always-blocked
 * floor refuses, a dangerous pattern asks for approval unless --yolo), written to a file in the
 * call's working directory (the session's workspace in the service layout), and run through the
 * terminal tool: the same backend (the sandbox when tools.terminal.backend is sandbox), environment
 * allowlist, time limit, output cap, redaction and `transform_terminal_output` hook, with a memory
 * limit of its own.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ToolContext, ToolDefinition } from '@hermes/protocol';
import { approvalPatterns, screenCommand } from './command-screen.js';
import { errorMessage } from './errno.js';
import { optionalNumber, parseArgs, requiredString } from './tool-args.js';
import { errorResult } from './tool-result.js';
import { callWorkDir, workspacesRoot } from './workspace.js';

export const EXECUTE_CODE_LANGUAGES = ['python', 'javascript', 'bash'] as const;
export type CodeLanguage = (typeof EXECUTE_CODE_LANGUAGES)[number];
/** the snippet's memory, by default and at most */
export const EXECUTE_CODE_MEMORY_MB = 512;
export const EXECUTE_CODE_MAX_MEMORY_MB = 4_096;
export const EXECUTE_CODE_DEFAULT_TIMEOUT_S = 30;
/** a snippet longer than this is refused (write a file and run it with terminal instead) */
export const EXECUTE_CODE_MAX_CHARS = 100_000;
/** the folder of the working directory the snippets are written to (deleted after each run) */
export const CODE_DIR = '.hermes-code';

const SCHEMA = {
  name: 'execute_code',
  description: [
    'Run a snippet of code and get back what it printed (stdout and stderr, in order) and its exit code.',
    'language: python (python3), javascript (node) or bash. Use it to compute, parse or transform data, or test',
    'an idea; files it writes land in the working directory. Limits: timeout_s (default 30, at most 600) and',
    `memory_mb (default ${EXECUTE_CODE_MEMORY_MB}). No input is given; print what you need to see.`,
  ].join(' '),
  parameters: {
    type: 'object',
    properties: {
      language: { type: 'string', enum: [...EXECUTE_CODE_LANGUAGES] },
      code: { type: 'string', description: 'The program to run.' },
      timeout_s: { type: 'number', description: 'Seconds before it is killed (default 30).' },
      memory_mb: {
        type: 'integer',
        minimum: 16,
        description: `Memory limit in MB (default ${EXECUTE_CODE_MEMORY_MB}).`,
      },
    },
    required: ['language', 'code'],
    additionalProperties: false,
  },
};

const EXTENSIONS: Record<CodeLanguage, string> = { python: 'py', javascript: 'js', bash: 'sh' };

/** The shell command that runs `file` with the memory limit. */
export function codeCommand(language: CodeLanguage, file: string, memoryMb: number): string {
  const quoted = `'${file.replace(/'/g, `'\\''`)}'`;
  // V8 reserves far more address space than it uses: node gets a heap limit, the others ulimit -v;
  // require or import, whichever the snippet uses (node 20's module detection)
  if (language === 'javascript')
    return `node --experimental-detect-module --no-warnings --max-old-space-size=${memoryMb} ${quoted}`;
  const limit = `ulimit -v ${memoryMb * 1024} 2>/dev/null;`;
  // unbuffered: what it prints and its errors arrive in the order they were written
  return language === 'python' ? `${limit} PYTHONUNBUFFERED=1 python3 ${quoted}` : `${limit} bash ${quoted}`;
}

export interface ExecuteCodeOptions {
  cwd?: string;
  hermesHomes?: readonly string[];
  homeDir?: string;
  backend?: 'local' | 'sandbox';
  /** terminal.dangerous_patterns_extra: they ask for a snippet too */
  extraDangerousPatterns?: readonly string[];
  yolo?: boolean;
  /** the terminal tool the snippet runs through (its backend, limits, output and redaction) */
  terminal: ToolDefinition;
}

/** The execute_code tool (toolset `code_execution`). */
export function createExecuteCodeTool(options: ExecuteCodeOptions): ToolDefinition {
  const baseCwd = options.cwd ?? process.cwd();
  const workspaces = workspacesRoot(baseCwd, options.hermesHomes ?? []);
  const patterns = approvalPatterns(options);

  const handler = async (args: Record<string, unknown>, context: ToolContext): Promise<string> => {
    const parsed = parseArgs(() => ({
      language: requiredString(args, 'language'),
      code: requiredString(args, 'code'),
      timeoutS: optionalNumber(args, 'timeout_s') ?? EXECUTE_CODE_DEFAULT_TIMEOUT_S,
      memoryMb: optionalNumber(args, 'memory_mb', { integer: true, min: 16 }) ?? EXECUTE_CODE_MEMORY_MB,
    }));
    if (!parsed.ok) return errorResult(parsed.error, { code: parsed.code });
    const { code, timeoutS } = parsed.value;
    const language = parsed.value.language.toLowerCase() as CodeLanguage;
    if (!EXECUTE_CODE_LANGUAGES.includes(language)) {
      return errorResult(
        `Invalid argument "language": expected one of ${EXECUTE_CODE_LANGUAGES.join(', ')}, got "${parsed.value.language}"`,
      );
    }
    if (code.length > EXECUTE_CODE_MAX_CHARS)
      return errorResult(
        `code is longer than ${EXECUTE_CODE_MAX_CHARS} characters: write it to a file and run it with terminal`,
      );
    const memoryMb = Math.min(parsed.value.memoryMb, EXECUTE_CODE_MAX_MEMORY_MB);

    // the same checks as a terminal command, on the snippet's text
    const refused = await screenCommand(code, context, {
      patterns,
      yolo: options.yolo,
      shown: `${language} snippet:\n${code}`,
      noun: 'Code',
    });
    if (refused !== null) return refused;

    const workDir = await callWorkDir(baseCwd, workspaces, context.sessionId);
    const dir = path.join(workDir, CODE_DIR);
    const file = path.join(dir, `snippet-${randomBytes(6).toString('hex')}.${EXTENSIONS[language]}`);
    try {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await writeFile(file, code, { mode: 0o600 });
    } catch (error) {
      return errorResult(`Cannot write the snippet in ${dir}: ${errorMessage(error)}`);
    }
    try {
      const result = await options.terminal.handler(
        { command: codeCommand(language, path.relative(workDir, file), memoryMb), timeout_s: timeoutS },
        context,
      );
      return typeof result === 'string' ? result : JSON.stringify(result);
    } finally {
      await rm(file, { force: true });
    }
  };

  return { name: 'execute_code', toolset: 'code_execution', schema: SCHEMA, handler, owner: 'builtin', emoji: '🐍' };
}
