// Hermes as users run it, for the benches: apps/hermes/bin/hermes.js executed as the `hermes`
// command runs it (its first two lines' settings apply: src/service/launch-settings.ts; this node first on
// PATH) with `gateway run` (the built CLI), in a process of its own, with a fresh HERMES_HOME
// holding config.yaml (the fake model, one platform's settings) and the platform's tokens in its
// environment. Everything else is as shipped: SQLite state in HERMES_HOME/state.db (WAL, inbox,
// outbox, fsync as default), log level info (HERMES_HOME/logs/gateway.log), the always-on API platform.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { stringify } from 'yaml';
import { HERMES_BIN } from '../helpers/run-hermes.js';
import { type SystemProcess, spawnSystem } from './system-process.js';

export interface HermesProcessOptions {
  /** the platform to wait for (`gateway.platforms.<name>`) */
  platform: string;
  /** gateway.platforms.<platform> in config.yaml */
  settings: Record<string, unknown>;
  /** the platform's tokens and allowlist */
  env: Record<string, string>;
  /** the fake model's base URL (…/v1) */
  modelUrl: string;
  /** gateway.max_concurrent_runs (default 8, a guard for local models): set to the bench's concurrency */
  maxConcurrentRuns: number;
  /** runs with the new HERMES_HOME before the gateway starts (e.g. seeds state.db) */
  prepare?: (home: string) => void | Promise<void>;
}

export interface HermesProcess extends SystemProcess {
  home: string;
  /** http://127.0.0.1:PORT */
  url: string;
  port: number;
}

const CONNECT_TIMEOUT_MS = 20_000;

/**
 * `bin` executed as the `hermes` command is (its first two lines: `exec env … node …` with the launcher's
 * settings), this node first on PATH so that its sh finds it: the variables to add.
 */
export function binEnv(): { PATH: string } {
  return { PATH: [dirname(process.execPath), process.env.PATH ?? ''].join(delimiter) };
}

/**
 * The config.yaml of a bench gateway: only what points it at the fakes, the run limit, and a user's
 * turns a minute (the default of 20 is a guard for people; the long-chat row sends one chat's
 * 1,500 messages in seconds).
 */
export function benchConfig(options: HermesProcessOptions, home: string): Record<string, unknown> {
  return {
    model: { default: 'fake-model', base_url: options.modelUrl },
    access: { tiers: { user: { limits: { turns_per_minute: 1_000_000 } } } },
    terminal: { cwd: home },
    gateway: {
      host: '127.0.0.1',
      port: 0,
      max_concurrent_runs: options.maxConcurrentRuns,
      platforms: { [options.platform]: options.settings },
    },
  };
}

async function platformState(url: string, platform: string): Promise<string> {
  const response = await fetch(`${url}/health`);
  const body = (await response.json()) as { platforms?: Record<string, { state?: string; error?: string }> };
  const entry = body.platforms?.[platform];
  return entry === undefined ? 'missing' : `${entry.state ?? '?'}${entry.error ? ` (${entry.error})` : ''}`;
}

/** Starts the gateway and resolves once `/health` reports the platform connected. */
export async function startHermesProcess(options: HermesProcessOptions): Promise<HermesProcess> {
  const home = mkdtempSync(join(tmpdir(), `hermes-bench-${options.platform}-`));
  mkdirSync(join(home, 'locks'), { recursive: true });
  writeFileSync(join(home, 'config.yaml'), stringify(benchConfig(options, home)));
  try {
    await options.prepare?.(home);
  } catch (error) {
    rmSync(home, { recursive: true, force: true });
    throw error;
  }
  let proc: SystemProcess;
  try {
    proc = await spawnSystem({
      name: `hermes gateway run (${options.platform})`,
      // BENCH_HERMES_BIN: another build's bin/hermes.js (e.g. an older commit's worktree), to compare
      // builds; executed too, so its own settings apply
      command: process.env.BENCH_HERMES_BIN || HERMES_BIN,
      args: ['gateway', 'run'],
      // its own token lock dir, so a test run elsewhere on the machine with the same fake tokens cannot collide
      env: { ...options.env, ...binEnv(), HERMES_HOME: home, HERMES_LOCK_DIR: join(home, 'locks') },
      ready: /listening on (http:\/\/127\.0\.0\.1:(\d+))/,
      timeoutMs: CONNECT_TIMEOUT_MS,
    });
  } catch (error) {
    rmSync(home, { recursive: true, force: true });
    throw error;
  }
  const url = proc.readyMatch[1] ?? '';
  const stopAndClean = async (graceMs?: number) => {
    await proc.stop(graceMs);
    rmSync(home, { recursive: true, force: true });
  };
  const deadline = performance.now() + CONNECT_TIMEOUT_MS;
  for (;;) {
    const state = await platformState(url, options.platform).catch((e: unknown) => `unreachable: ${String(e)}`);
    if (state === 'connected') break;
    if (performance.now() > deadline) {
      await stopAndClean();
      throw new Error(`hermes: ${options.platform} is ${state}, not connected:\n${proc.outputTail()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { ...proc, stop: stopAndClean, home, url, port: Number(proc.readyMatch[2]) };
}
