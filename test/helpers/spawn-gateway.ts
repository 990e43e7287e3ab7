import { type ChildProcess, spawn } from 'node:child_process';
import { HERMES_BIN, testLockDir } from './run-hermes.js';

/**
 * The gateways the current test file started that have not exited: killed once the file is done
 * (test/helpers/per-file.ts, a setup file, so it holds for every file a worker runs), so a test
 * that timed out before its stop() leaves no gateway running into the next files.
 */
const running = new Set<ChildProcess>();

/** Kills every gateway this worker started that is still running (called after each test file). */
export function killStrayGateways(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

export interface RunningGateway {
  url: string;
  child: ChildProcess;
  stderr(): string;
  /** SIGTERM and wait; resolves with the exit code */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts `hermes gateway run [...args]` (port 0) and resolves once it is listening and its
 * platforms have started (connected or failed); `{ platforms: false }`: once it is listening
 * (healthy, platforms perhaps still connecting).
 */
export function spawnGateway(
  env: Record<string, string>,
  timeoutMs = 30_000,
  args: readonly string[] = [],
  wait: { platforms?: boolean } = {},
): Promise<RunningGateway> {
  return new Promise((resolve, reject) => {
    const base: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) {
      if (v !== undefined && !/^(OPENAI_|HERMES_|TELEGRAM_|DISCORD_|SLACK_|API_SERVER_KEY)/.test(k)) base[k] = v;
    }
    const child = spawn(process.execPath, [HERMES_BIN, 'gateway', 'run', ...args], {
      env: { ...base, HERMES_GATEWAY_PORT: '0', ...testLockDir(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.add(child);
    child.once('exit', () => running.delete(child));
    let err = '';
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`gateway did not start: ${err}`));
    }, timeoutMs);
    child.stderr?.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m?.[1] && (wait.platforms === false || err.includes('hermes gateway platforms started'))) {
        clearTimeout(timer);
        resolve({
          url: m[1],
          child,
          stderr: () => err,
          async stop(signal = 'SIGTERM') {
            child.kill(signal);
            return exited;
          },
        });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`gateway exited ${code}: ${err}`));
    });
  });
}
