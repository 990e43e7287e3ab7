/**
 * The `terminal` tool: runs a shell command after the dangerous-command check, then passes its
 * output through transform_terminal_output, the cap, ANSI stripping and secret redaction.
 */
import { stat } from 'node:fs/promises';
import os from 'node:os';
import type { ToolContext, ToolDefinition } from '@hermes/protocol';
import { approvalPatterns, screenCommand } from './command-screen.js';
import { errnoCode, errorMessage } from './errno.js';
import { hermesHomeCwdMatch } from './hermes-home-patterns.js';
import { pathsToHide } from './protected-paths.js';
import { resolveToolPath } from './resolve-tool-path.js';
import { runShellCommand, type ShellRunResult } from './run-shell-command.js';
import { BWRAP, bwrapArgs, probeSandbox, type SandboxProbe } from './sandbox.js';
import { terminalEnv } from './terminal-env.js';
import { finishTerminalOutput, type Redactor } from './terminal-output.js';
import { optionalNumber, optionalString, parseArgs, requiredString } from './tool-args.js';
import { errorResult, jsonResult } from './tool-result.js';
import { callWorkDir, workspacesRoot } from './workspace.js';

export const TERMINAL_TIMEOUT_MS = 60_000;
export const TERMINAL_MIN_TIMEOUT_MS = 1_000;
export const TERMINAL_MAX_TIMEOUT_MS = 600_000;
export const TERMINAL_MAX_OUTPUT_CHARS = 50_000;

export interface TerminalToolOptions {
  /** default timeout when the model passes no timeout_s (clamped to 1 s .. 600 s) */
  timeoutMs?: number;
  /** output longer than this keeps its head and tail around an omission marker */
  maxOutputChars?: number;
  /** working directory for commands and for relative `cwd` arguments; process.cwd() by default */
  cwd?: string;
  /** extra JavaScript regex sources, matched case-insensitively, that also need approval */
  extraDangerousPatterns?: readonly string[];
  /** run dangerous commands without asking */
  yolo?: boolean;
  /** the current secret values to redact from output */
  secrets?: () => string[];
  /** replaces secrets in the output; no-op by default */
  redact?: Redactor;
  /** the environment commands get their allowed variables from; process.env by default (never passed whole) */
  env?: NodeJS.ProcessEnv;
  /** tools.terminal.env_passthrough: variable names passed besides PATH, HOME, LANG, TERM and LC_* */
  envPassthrough?: readonly string[];
  /** tools.terminal.backend: a plain child process (default) or bubblewrap */
  backend?: 'local' | 'sandbox';
  /** tools.terminal.network: sandbox commands may use the network */
  network?: boolean;
  /** HERMES_HOME directories, hidden inside the sandbox */
  hermesHomes?: readonly string[];
  /** the user's home directory, whose keys are hidden inside the sandbox; os.homedir() by default */
  homeDir?: string;
  /** the bubblewrap executable; `bwrap` on PATH by default */
  bwrapPath?: string;
}

interface TerminalArgs {
  command: string;
  timeoutS: number | undefined;
  cwd: string | undefined;
}

const SCHEMA = {
  name: 'terminal',
  description: [
    'Run a shell command with /bin/sh in the working directory and return its combined stdout/stderr and exit code.',
    'Use it for builds, tests, git, package managers and any other command-line program.',
    'Commands run non-interactively (stdin is closed) and are killed after timeout_s seconds (default 60, max 600):',
    'do not start interactive programs, and run servers in the background with their output redirected (cmd > log 2>&1 &).',
    'A non-zero exit_code is reported, not raised. Long output is cut in the middle.',
    "Destructive commands (recursive deletes of / or ~, sudo, git push --force, ...) need the user's approval and may be denied; do not retry a denied command.",
    'Prefer read_file and write_file over cat, heredocs or echo redirection for files.',
  ].join(' '),
  parameters: {
    type: 'object',
    properties: {
      command: { type: 'string', description: 'The shell command to run, e.g. "npm test" or "ls -la src".' },
      timeout_s: {
        type: 'number',
        description: 'Seconds before the command and all its child processes are killed (1-600, default 60).',
      },
      cwd: {
        type: 'string',
        description: 'Directory to run in; relative paths resolve against the working directory. Defaults to it.',
      },
    },
    required: ['command'],
    additionalProperties: false,
  },
};

function clampTimeoutMs(ms: number): number {
  return Math.min(TERMINAL_MAX_TIMEOUT_MS, Math.max(TERMINAL_MIN_TIMEOUT_MS, ms));
}

function readArgs(args: Record<string, unknown>): TerminalArgs {
  return {
    command: requiredString(args, 'command'),
    timeoutS: optionalNumber(args, 'timeout_s'),
    cwd: optionalString(args, 'cwd'),
  };
}

/** Null when `dir` is an existing directory, else the error message for the model. */
async function checkDirectory(dir: string): Promise<string | null> {
  try {
    if ((await stat(dir)).isDirectory()) return null;
    return `Working directory is not a directory: ${dir}`;
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return `Working directory not found: ${dir}`;
    return `Cannot use working directory ${dir}: ${errorMessage(error)}`;
  }
}

function resultJson(output: string, run: ShellRunResult): string {
  return jsonResult({
    output,
    exit_code: run.exitCode,
    ...(run.timedOut ? { timed_out: true } : {}),
    ...(run.interrupted ? { interrupted: true } : {}),
  });
}

/** The terminal tool (toolset `terminal`); throws TypeError at creation for invalid options or extra patterns. */
export function createTerminalTool(options: TerminalToolOptions = {}): ToolDefinition {
  const baseCwd = options.cwd ?? process.cwd();
  const defaultTimeoutMs = options.timeoutMs ?? TERMINAL_TIMEOUT_MS;
  const maxOutputChars = options.maxOutputChars ?? TERMINAL_MAX_OUTPUT_CHARS;
  if (!(Number.isFinite(defaultTimeoutMs) && defaultTimeoutMs > 0)) {
    throw new TypeError(`terminal: timeoutMs must be a positive number of milliseconds, got ${defaultTimeoutMs}`);
  }
  if (!(Number.isInteger(maxOutputChars) && maxOutputChars > 0)) {
    throw new TypeError(`terminal: maxOutputChars must be a positive integer, got ${maxOutputChars}`);
  }
  const sandboxed = options.backend === 'sandbox';
  const hermesHomes = options.hermesHomes ?? [];
  const homeDir = options.homeDir ?? os.homedir();
  const patterns = approvalPatterns(options);
  const secrets = options.secrets ?? (() => []);
  const redact: Redactor = options.redact ?? ((text) => text);
  const env = terminalEnv(options.env ?? process.env, options.envPassthrough ?? []);
  const bwrap = options.bwrapPath ?? BWRAP;
  const hide = pathsToHide({ hermesHomes, homeDir });
  // the service layout (cwd inside HERMES_HOME): each session works in HERMES_HOME/workspaces/<session>
  const workspaces = workspacesRoot(baseCwd, hermesHomes);
  let sandboxReady: Promise<SandboxProbe> | undefined;
  /** probes bwrap once it works; a failed probe is retried on the next command */
  const checkSandbox = async (): Promise<string | null> => {
    sandboxReady ??= probeSandbox(bwrap);
    const probe = await sandboxReady;
    if (probe.ok) return null;
    sandboxReady = undefined;
    return `Command not run: tools.terminal.backend is "sandbox" but ${probe.error}. Commands never run unsandboxed; tell the user (hermes doctor shows this too).`;
  };
  const wrapperFor = async (workDir: string, cwd: string): Promise<string[] | undefined> =>
    sandboxed
      ? [bwrap, ...(await bwrapArgs({ workDir, commandCwd: cwd, network: options.network ?? false, hide }))]
      : undefined;

  /** transform_terminal_output: a string result replaces the raw output; a failing hook leaves it. */
  const transform = async (context: ToolContext, command: string, cwd: string, run: ShellRunResult) => {
    try {
      const replaced = await context.hooks.invoke('transform_terminal_output', {
        command,
        output: run.output,
        exitCode: run.exitCode,
        cwd,
        taskId: context.taskId === '' ? null : context.taskId,
      });
      return typeof replaced === 'string' ? replaced : run.output;
    } catch (error) {
      context.logger.warn({ err: error, command }, 'transform_terminal_output failed; using the raw output');
      return run.output;
    }
  };

  const handler = async (args: Record<string, unknown>, context: ToolContext): Promise<string> => {
    const parsed = parseArgs(() => readArgs(args));
    if (!parsed.ok) return errorResult(parsed.error, { code: parsed.code });
    const { command, timeoutS } = parsed.value;
    const workDir = await callWorkDir(baseCwd, workspaces, context.sessionId);
    const cwd = parsed.value.cwd === undefined ? workDir : resolveToolPath(parsed.value.cwd, workDir);
    const cwdError = await checkDirectory(cwd);
    if (cwdError !== null) return errorResult(cwdError);
    const sandboxError = sandboxed ? await checkSandbox() : null;
    if (sandboxError !== null) return errorResult(sandboxError);

    const inHome = sandboxed ? null : hermesHomeCwdMatch(command, cwd, hermesHomes);
    const refused = await screenCommand(command, context, {
      patterns,
      yolo: options.yolo,
      ...(inHome !== null ? { extra: [inHome] } : {}),
    });
    if (refused !== null) return refused;
    if (context.signal.aborted) return jsonResult({ output: '', exit_code: -1, interrupted: true });

    let run: ShellRunResult;
    try {
      run = await runShellCommand({
        command,
        cwd,
        timeoutMs: clampTimeoutMs(timeoutS === undefined ? defaultTimeoutMs : timeoutS * 1000),
        signal: context.signal,
        env,
        wrapper: await wrapperFor(workDir, cwd),
      });
    } catch (error) {
      return errorResult(`Failed to start the command: ${errorMessage(error)}`);
    }
    const output = await transform(context, command, cwd, run);
    return resultJson(finishTerminalOutput(output, maxOutputChars, redact, secrets()), run);
  };

  return { name: 'terminal', toolset: 'terminal', schema: SCHEMA, handler, owner: 'builtin', emoji: '💻' };
}
