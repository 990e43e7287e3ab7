// A system under test in a process of its own: spawned with its own command line and environment,
// ready once a line of its output matches, measured from /proc (CPU time, RSS), stopped with SIGTERM.
import { type ChildProcess, spawn } from 'node:child_process';
import { processCpuMs, processRssMb } from './proc-stat.js';

export interface SystemProcess {
  readonly pid: number;
  /** the first match of `ready` in its output */
  readonly readyMatch: RegExpExecArray;
  /** its CPU time so far (user + system, all threads), ms */
  cpuMs(): number;
  /** its resident set size now, MB */
  rssMb(): number;
  /** the last 8 KB of its stdout and stderr, for error messages */
  outputTail(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once it exited */
  stop(graceMs?: number): Promise<void>;
}

export interface SpawnOptions {
  name: string;
  command: string;
  args: readonly string[];
  env: Record<string, string>;
  /** a line of stdout or stderr that says it is ready */
  ready: RegExp;
  timeoutMs?: number;
}

const TAIL_BYTES = 8_192;

/** variables that would configure a system under test: the model, Hermes, the platforms' tokens */
const CONFIGURING =
  /^(OPENAI_|HERMES_|TELEGRAM_|DISCORD_|SLACK_|WHATSAPP_|MATRIX_|SIGNAL_|EMAIL_|API_SERVER_KEY|BENCH_|NODE_OPTIONS)/;

/** The caller's environment without anything that would configure a system under test by accident. */
export function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined) continue;
    if (CONFIGURING.test(key)) continue;
    env[key] = value;
  }
  return env;
}

/** Spawns the process and resolves once its output matches `ready` (rejects on exit or timeout). */
export function spawnSystem(options: SpawnOptions): Promise<SystemProcess> {
  const child: ChildProcess = spawn(options.command, [...options.args], {
    env: { ...cleanEnv(), ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let tail = '';
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      resolve();
    }),
  );
  return new Promise((resolve, reject) => {
    let found: RegExpExecArray | null = null;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${options.name} was not ready within ${options.timeoutMs ?? 20_000} ms:\n${tail}`));
    }, options.timeoutMs ?? 20_000);
    const onData = (chunk: Buffer) => {
      tail = (tail + chunk.toString()).slice(-TAIL_BYTES);
      if (found !== null) return;
      found = options.ready.exec(tail);
      if (found === null) return;
      clearTimeout(timer);
      const pid = child.pid;
      if (pid === undefined) throw new Error(`${options.name}: no pid`);
      const readyMatch = found;
      resolve({
        pid,
        readyMatch,
        cpuMs: () => processCpuMs(pid),
        rssMb: () => processRssMb(pid),
        outputTail: () => tail,
        async stop(graceMs = 10_000) {
          if (exited) return;
          child.kill('SIGTERM');
          const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
          await exit;
          clearTimeout(kill);
        },
      });
    };
    // drained all along: a system that logs must never block on a full pipe
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (found === null) reject(new Error(`${options.name} exited (${code ?? signal}) before it was ready:\n${tail}`));
    });
  });
}
