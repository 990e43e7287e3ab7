/**
 * Runs one TTS command: argv spawned without a shell in its own process group, the text written to
 * its stdin, stdout kept as bytes up to a cap, the end of stderr kept for errors. An aborted signal
 * (the timeout, the gateway stopping) kills the whole group, so a wrapper script's children go too.
 */
import { spawn } from 'node:child_process';
import { basename } from 'node:path';
import { forgetProcessGroup, killProcessGroup, trackProcessGroup } from '@hermes/plugins';

/** the end of stderr kept for an error message */
const STDERR_TAIL_CHARS = 400;

export interface SpeechProcessOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  /** stdout bytes kept; past them: `fail` rejects (stdout is the audio), `drop` ignores the rest */
  maxStdoutBytes: number;
  onStdoutOverflow: 'fail' | 'drop';
}

export interface SpeechProcessResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  /** the last characters of stderr, whitespace collapsed */
  stderrTail: string;
}

/** The program's name for messages (`piper`, not its whole path). */
export const programName = (argv: readonly string[]): string => basename(argv[0] ?? '');

/** Runs `argv` with `input` on stdin; resolves when it exits, rejects when it cannot start, overflows or is aborted. */
export function runSpeechProcess(
  argv: readonly string[],
  input: string,
  options: SpeechProcessOptions,
): Promise<SpeechProcessResult> {
  const [program, ...args] = argv;
  const name = programName(argv);
  if (program === undefined || program === '') return Promise.reject(new Error('the command is empty'));
  if (options.signal.aborted) return Promise.reject(new Error(`\`${name}\` was not started: the request was stopped`));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = '';
    let settled = false;
    const child = spawn(program, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
      windowsHide: true,
    });
    trackProcessGroup(child.pid);
    const settle = (error: Error | null, result?: SpeechProcessResult) => {
      if (settled) return;
      settled = true;
      options.signal.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else if (result) resolve(result);
    };
    const stop = (why: string) => {
      killProcessGroup(child.pid);
      child.stdout.destroy();
      child.stderr.destroy();
      settle(new Error(why));
    };
    const onAbort = () => stop(`\`${name}\` was stopped (the time ran out or the gateway is stopping)`);
    options.signal.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => {
      if (size + chunk.length > options.maxStdoutBytes) {
        if (options.onStdoutOverflow === 'fail') {
          stop(`\`${name}\` printed more than ${options.maxStdoutBytes} bytes of audio (the cap)`);
          return;
        }
        chunk = chunk.subarray(0, Math.max(0, options.maxStdoutBytes - size));
      }
      size += chunk.length;
      if (chunk.length > 0) chunks.push(chunk);
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL_CHARS * 4);
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      forgetProcessGroup(child.pid);
      const why = error.code === 'ENOENT' ? 'not found (is it installed and on PATH?)' : error.message;
      settle(new Error(`cannot run \`${name}\`: ${why}`));
    });
    child.on('close', (code, signal) => {
      forgetProcessGroup(child.pid);
      const stderrTail = stderr.replace(/\s+/g, ' ').trim().slice(-STDERR_TAIL_CHARS);
      settle(null, { exitCode: code, signal, stdout: Buffer.concat(chunks), stderrTail });
    });
    // EPIPE only means the tool exited without reading its stdin (it read {input_path}): allowed
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}
