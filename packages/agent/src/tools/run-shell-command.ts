/**
 * Runs one command with /bin/sh in its own process group: stdin closed, stdout and stderr
 * combined in arrival order, the whole group killed on timeout or abort.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import { killProcessGroup } from './kill-process-group.js';
import { createOutputCollector, RAW_OUTPUT_LIMIT_BYTES } from './output-collector.js';

export const SHELL_PATH = '/bin/sh';

/**
 * After the shell exits, how long to wait for its output pipes to close. Background jobs that
 * keep the pipes open are left running and cut off from the output after this.
 */
export const EXIT_DRAIN_MS = 500;

export interface ShellRunRequest {
  command: string;
  cwd: string;
  timeoutMs: number;
  signal: AbortSignal;
  env?: NodeJS.ProcessEnv;
  /** a program and its arguments that run the shell (the sandbox: bwrap ...); none by default */
  wrapper?: readonly string[];
  killGraceMs?: number;
  drainMs?: number;
  rawLimitBytes?: number;
}

export interface ShellRunResult {
  /** raw combined stdout/stderr */
  output: string;
  /** the exit status; 128 + signal number when killed by a signal */
  exitCode: number;
  timedOut: boolean;
  interrupted: boolean;
}

function exitStatus(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  const signalNumber = signal === null ? undefined : os.constants.signals[signal];
  return signalNumber === undefined ? -1 : 128 + signalNumber;
}

/** Runs `command` to completion, timeout or abort; rejects only when the shell cannot be started. */
export function runShellCommand(request: ShellRunRequest): Promise<ShellRunResult> {
  return new Promise((resolve, reject) => {
    const collector = createOutputCollector(request.rawLimitBytes ?? RAW_OUTPUT_LIMIT_BYTES);
    const [program = SHELL_PATH, ...args] = [...(request.wrapper ?? []), SHELL_PATH, '-c', request.command];
    const child = spawn(program, args, {
      cwd: request.cwd,
      env: request.env ?? process.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let timedOut = false;
    let interrupted = false;
    let stopping = false;
    let settled = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let drainTimer: NodeJS.Timeout | undefined;

    const stop = () => {
      if (stopping || child.pid === undefined) return;
      stopping = true;
      killProcessGroup(child.pid, { graceMs: request.killGraceMs }).catch(() => {
        // the group could not be signalled (e.g. EPERM): fall back to the shell itself
        child.kill('SIGKILL');
      });
    };
    const onAbort = () => {
      interrupted = true;
      stop();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, request.timeoutMs);

    const cleanup = () => {
      settled = true;
      clearTimeout(timer);
      clearTimeout(drainTimer);
      request.signal.removeEventListener('abort', onAbort);
    };
    const finish = () => {
      if (settled) return;
      cleanup();
      resolve({
        output: collector.text(),
        exitCode: exitStatus(exit?.code ?? null, exit?.signal ?? null),
        timedOut,
        interrupted,
      });
    };

    child.stdout.on('data', (chunk: Buffer) => collector.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => collector.push(chunk));
    child.on('error', (error) => {
      if (settled) return;
      cleanup();
      reject(error);
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      drainTimer = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish();
      }, request.drainMs ?? EXIT_DRAIN_MS);
    });
    child.on('close', finish);

    if (request.signal.aborted) onAbort();
    else request.signal.addEventListener('abort', onAbort, { once: true });
  });
}
