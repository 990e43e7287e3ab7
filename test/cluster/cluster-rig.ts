// Several `hermes gateway run` processes on one PostgreSQL database, as an operator runs them: one
// HERMES_HOME each (own gateway.lock, logs, port), the same config.yaml, `state.backend: postgres`,
// HERMES_DATABASE_URL and a distinct HERMES_INSTANCE_ID. Used by the failover test and the bench.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { tempHome } from '../helpers/run-hermes.js';
import { type RunningGateway, spawnGateway } from '../helpers/spawn-gateway.js';
import { waitForValue } from '../helpers/wait-for.js';

/** `cluster` in GET /health and `hermes gateway status --json` (absent on SQLite). */
export interface ClusterHealth {
  instance: string;
  members: { instance: string; host: string; pid: number; alive: boolean; platforms: string[] }[];
  /** platform name -> the instance id holding it */
  holders: Record<string, string>;
  outbox_lag_s: number | null;
}

export interface Health {
  status: string;
  platforms: Record<string, { state: string; error?: string }>;
  cluster?: ClusterHealth;
}

export interface ClusterInstance {
  readonly id: string;
  readonly home: string;
  readonly gateway: RunningGateway;
  health(): Promise<Health | null>;
}

export interface ClusterConfig {
  /** `gateway.platforms` */
  platforms: Record<string, Record<string, unknown>>;
  failoverS: number;
  /** more config.yaml keys, merged at the top level */
  extra?: Record<string, unknown>;
}

/** Writes the config every instance shares into a fresh HERMES_HOME. */
export function clusterHome(config: ClusterConfig): string {
  const home = tempHome();
  const { gateway: extraGateway, ...extra } = (config.extra ?? {}) as { gateway?: Record<string, unknown> };
  const yaml = {
    ...extra,
    state: { backend: 'postgres' },
    gateway: { ...extraGateway, cluster: { failover_s: config.failoverS }, platforms: config.platforms },
  };
  writeFileSync(join(home, 'config.yaml'), stringify(yaml));
  return home;
}

/** GET /health of a running gateway; null when it does not answer (killed, not listening yet). */
export async function health(url: string): Promise<Health | null> {
  try {
    const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2_000) });
    return (await res.json()) as Health;
  } catch {
    return null;
  }
}

/**
 * Starts one instance with its own home: `hermes gateway run` on port 0, resolved once it listens
 * (its platforms may still be starting, or standing by for another instance).
 */
export async function startInstance(
  id: string,
  config: ClusterConfig,
  env: Record<string, string>,
  timeoutMs = 30_000,
): Promise<ClusterInstance> {
  const home = clusterHome(config);
  // the machine-wide token claims (HERMES_LOCK_DIR) in the home: each instance is on a machine of its own
  const gateway = await spawnGateway(
    { ...env, HERMES_HOME: home, HERMES_LOCK_DIR: join(home, 'locks'), HERMES_INSTANCE_ID: id },
    timeoutMs,
    [],
    { platforms: false },
  );
  return { id, home, gateway, health: () => health(gateway.url) };
}

/** Stops an instance (SIGTERM and wait, or nothing when it is gone already) and removes its home. */
export async function stopInstance(instance: ClusterInstance): Promise<void> {
  const child = instance.gateway.child;
  if (child.exitCode === null && child.signalCode === null) await instance.gateway.stop();
  // KEEP_HOMES=1 keeps each instance's home (its gateway.log) to look at after a run
  if (!process.env.KEEP_HOMES) rmSync(instance.home, { recursive: true, force: true });
  else console.log(`kept ${instance.home}`);
}

/** The first value `read` gives that `ok` accepts, polling every 100 ms; throws naming `what` and the last value after `timeoutMs`. */
export function waitFor<T>(
  what: string,
  read: () => Promise<T> | T,
  ok: (value: T) => boolean,
  timeoutMs: number,
): Promise<T> {
  return waitForValue(read, ok, { what, timeoutMs, stepMs: 100 });
}
