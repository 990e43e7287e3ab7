/**
 * Runs one shell-hook process: argv spawned without a shell, `input` on stdin, stdout and stderr
 * collected (capped), killed with its whole process group when the timeout passes. Never throws.
 */
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { forgetProcessGroup, killProcessGroup, trackProcessGroup } from '../process-groups.js';

/** Output beyond this many characters per stream is dropped. */
export const HOOK_OUTPUT_MAX_CHARS = 1_000_000;

export interface HookProcessOptions {
  cwd: string;
  timeoutMs: number;
  env?: NodeJS.ProcessEnv;
}

export interface HookProcessResult {
  /** exit: the process ended by itself (any code or signal); timeout: killed by us; spawn_error: never started */
  outcome: 'exit' | 'timeout' | 'spawn_error';
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  durationMs: number;
  /** the spawn error (ENOENT, EACCES, ...), for spawn_error */
  error: string | null;
}

/** Spawns `argv`, writes `input` to its stdin and resolves when it exits or times out. */
export function runHookProcess(
  argv: readonly string[],
  input: string,
  options: HookProcessOptions,
): Promise<HookProcessResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    const [program, ...args] = argv;
    if (program === undefined || program === '') {
      resolve({
        outcome: 'spawn_error',
        exitCode: null,
        signal: null,
        stdout: '',
        stderr: '',
        durationMs: 0,
        error: 'empty command',
      });
      return;
    }
    let stdout = '';
    let stderr = '';
    let settled = false;
    const finish = (result: Omit<HookProcessResult, 'stdout' | 'stderr' | 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, stdout, stderr, durationMs: elapsed() });
    };
    const child = spawn(program, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      // its own process group, so a timeout kills whatever the hook started too
      detached: true,
      windowsHide: true,
    });
    trackProcessGroup(child.pid);
    const timer = setTimeout(() => {
      killProcessGroup(child.pid);
      child.stdout?.destroy();
      child.stderr?.destroy();
      finish({ outcome: 'timeout', exitCode: null, signal: 'SIGKILL', error: null });
    }, options.timeoutMs);
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (stdout.length < HOOK_OUTPUT_MAX_CHARS) stdout += chunk.slice(0, HOOK_OUTPUT_MAX_CHARS - stdout.length);
    });
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < HOOK_OUTPUT_MAX_CHARS) stderr += chunk.slice(0, HOOK_OUTPUT_MAX_CHARS - stderr.length);
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      finish({ outcome: 'spawn_error', exitCode: null, signal: null, error: error.message });
    });
    child.on('close', (code, signal) => {
      forgetProcessGroup(child.pid);
      finish({ outcome: 'exit', exitCode: code, signal, error: null });
    });
    // EPIPE here only means the hook exited without reading its stdin: allowed
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}
