/**
 * `hermes gateway start | stop | restart | status`: the background gateway. One source of truth:
 * the HERMES_HOME lock (pid, process start token, URL), checked against the process table and
 * the gateway's own `/health`, so status never contradicts what runs.
 */
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, fchmodSync, openSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { listProfiles, loadConfig, makePrivateDir, resolveHome } from '@hermes/config';
import { EXIT } from '@hermes/protocol';
import { HERMES_BIN } from '../app-paths.js';
import { CliExit } from '../cli-error.js';
import type { GlobalOptions } from '../main.js';
import { LAUNCH_ENV, LAUNCH_NODE_FLAGS } from '../service/launch-settings.js';
import { systemdUserReachable } from '../service/manager-reachable.js';
import { type LockInfo, liveOwner, lockPath, readLock } from '../service/pid-lock.js';
import { stopProcess } from '../service/stop-process.js';
import { installedService } from './gateway-install.js';

/** how long `start` waits for /health to answer 200 */
const START_TIMEOUT_MS = 60_000;
const HEALTH_TIMEOUT_MS = 2_000;
/** stop waits the drain timeout plus this for the process to exit before SIGKILL */
const STOP_MARGIN_MS = 10_000;
/** status exit code when no gateway runs (as `systemctl status`) */
export const EXIT_NOT_RUNNING = 3;

export interface GatewayStatus {
  running: boolean;
  pid: number | null;
  uptime_s: number | null;
  version: string | null;
  home: string;
  url: string | null;
  /** platform name -> state, from /health */
  platforms: Record<string, string>;
  /** platform name -> why it is in `error` (the last failed attempt), from /health */
  platform_errors?: Record<string, string>;
  /** the enabled plugins that failed to load (`name: why`): the gateway is `degraded` */
  plugins_failed?: string[];
  health: 'ok' | 'degraded' | 'starting' | 'draining' | 'unreachable' | null;
  /** a lock left by a gateway that is gone */
  stale_lock: boolean;
  /** state.backend postgres: the cluster this instance is in, as /health shows it (members, holders, outbox lag) */
  cluster?: unknown;
}

function homeOf(options: GlobalOptions): string {
  return resolveHome({ env: process.env, ...(options.profile ? { profile: options.profile } : {}) }).home;
}

/** The gateway's start-up/crash output (what `start` reads a failure reason from). */
export const outputLogPath = (home: string): string => join(home, 'logs', 'gateway.out.log');

async function fetchHealth(url: string): Promise<{ status: number; body: Record<string, unknown> } | null> {
  try {
    const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) });
    const body = (await res.json()) as Record<string, unknown>;
    return { status: res.status, body };
  } catch {
    return null;
  }
}

/** Reads the status of the gateway of one HERMES_HOME. */
export async function gatewayStatus(home: string): Promise<GatewayStatus> {
  const path = lockPath(home);
  const lock = readLock(path);
  const owner = liveOwner(path);
  const base: GatewayStatus = {
    running: false,
    pid: null,
    uptime_s: null,
    version: null,
    home,
    url: null,
    platforms: {},
    health: null,
    stale_lock: lock !== null && owner === null,
  };
  if (!owner) return base;
  const status: GatewayStatus = {
    ...base,
    running: true,
    pid: owner.pid,
    uptime_s: Math.round((Date.now() - owner.startedAt) / 1000),
    version: owner.version,
    url: owner.url,
    health: owner.url ? 'unreachable' : 'starting',
  };
  if (!owner.url) return status;
  const health = await fetchHealth(owner.url);
  if (!health) return status;
  const platforms = (health.body.platforms ?? {}) as Record<string, { state?: string; error?: string }>;
  status.platforms = Object.fromEntries(Object.entries(platforms).map(([k, v]) => [k, String(v.state ?? '?')]));
  const errors = Object.entries(platforms).filter(([, v]) => v.state === 'error' && typeof v.error === 'string');
  if (errors.length > 0) status.platform_errors = Object.fromEntries(errors.map(([k, v]) => [k, String(v.error)]));
  const failed = (health.body.plugins as { failed?: { name: string; error: string }[] } | undefined)?.failed ?? [];
  if (failed.length > 0) status.plugins_failed = failed.map((f) => `${f.name}: ${f.error}`);
  if (health.body.cluster !== undefined) status.cluster = health.body.cluster;
  const state = String(health.body.state ?? '');
  status.health =
    health.status === 200
      ? health.body.status === 'ok'
        ? 'ok'
        : 'degraded'
      : state === 'draining'
        ? 'draining'
        : 'starting';
  return status;
}

function lastLines(file: string, from: number, count = 8): string {
  if (!existsSync(file)) return '';
  const text = readFileSync(file, 'utf8').slice(from);
  return text.trim().split('\n').slice(-count).join('\n');
}

/** When a service manager owns the gateway, start/stop/restart go through it (never two owners). */
function viaServiceManager(options: GlobalOptions, verb: 'start' | 'stop' | 'restart'): boolean {
  const { profile } = resolveHome({ env: process.env, ...(options.profile ? { profile: options.profile } : {}) });
  const service = installedService(profile);
  if (!service) return false;
  if (service.manager === 'systemd') {
    const reachable = systemdUserReachable();
    if (!reachable.ok) {
      process.stderr.write(
        `hermes: ${service.file} is installed but ${reachable.reason}; using the gateway's pid (gateway.lock) instead\n`,
      );
      return false;
    }
  }
  const [command = '', ...args] = service.control(verb);
  execFileSync(command, args, { stdio: 'inherit' });
  return true;
}

async function waitHealthy(home: string): Promise<GatewayStatus> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const s = await gatewayStatus(home);
    if (s.running && (s.health === 'ok' || s.health === 'degraded')) return s;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new CliExit(
    EXIT.ERROR,
    `the gateway did not become healthy within ${START_TIMEOUT_MS / 1000} s; see ${outputLogPath(home)}`,
  );
}

/** Starts the gateway in the background; resolves once /health answers 200, or fails with the reason from its output. */
export async function startGateway(options: GlobalOptions, home = homeOf(options)): Promise<GatewayStatus> {
  if (viaServiceManager(options, 'start')) return waitHealthy(home);
  const running = liveOwner(lockPath(home));
  if (running) {
    throw new CliExit(
      EXIT.ERROR,
      `a gateway is already running for ${home} (pid ${running.pid}); use \`hermes gateway restart\``,
    );
  }
  makePrivateDir(join(home, 'logs'));
  const out = outputLogPath(home);
  const offset = existsSync(out) ? statSync(out).size : 0;
  const fd = openSync(out, 'a', 0o600);
  fchmodSync(fd, 0o600); // the gateway's output may quote messages: owner-only, whatever the umask
  const args = [HERMES_BIN, ...(options.profile ? ['--profile', options.profile] : []), 'gateway', 'run'];
  if ('acceptHooks' in options && options.acceptHooks === true) args.push('--accept-hooks');
  // node runs the bin, so its first two lines' settings are passed here (service/launch-settings.ts)
  const child = spawn(process.execPath, [...LAUNCH_NODE_FLAGS, ...args], {
    detached: true,
    stdio: ['ignore', fd, fd],
    env: { ...process.env, ...LAUNCH_ENV, HERMES_HOME: resolveHome({ env: process.env }).root },
  });
  closeSync(fd);
  let exited: number | null = null;
  child.once('exit', (code) => {
    exited = code ?? 1;
  });
  child.unref();
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (exited !== null) {
      const reason = lastLines(out, offset, 3).replace(/\s*\n\s*/g, ' | ') || `exit code ${exited}`;
      throw new CliExit(
        exited === EXIT.CONFIG ? EXIT.CONFIG : EXIT.ERROR,
        `the gateway did not start (exit ${exited}): ${reason}`,
      );
    }
    const lock = readLock(lockPath(home));
    if (lock !== null && lock.pid === child.pid && lock.url) {
      const health = await fetchHealth(lock.url);
      if (health?.status === 200) return gatewayStatus(home);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new CliExit(EXIT.ERROR, `the gateway did not become healthy within ${START_TIMEOUT_MS / 1000} s; see ${out}`);
}

/** Stops the gateway gracefully (drain), SIGKILL after the drain timeout; resolves when no process is left. */
export async function stopGateway(
  options: GlobalOptions,
  home = homeOf(options),
): Promise<'stopped' | 'killed' | 'not_running'> {
  const path = lockPath(home);
  // systemctl stop / launchctl kill wait for the drain themselves
  if (viaServiceManager(options, 'stop')) return 'stopped';
  const owner: LockInfo | null = liveOwner(path);
  if (!owner) return 'not_running';
  let drainS = 30;
  try {
    drainS = loadConfig({ home, env: process.env }).config.gateway.drain_timeout_s;
  } catch {
    // a broken config must not keep a gateway from being stopped
  }
  return stopProcess(owner.pid, {
    graceMs: drainS * 1000 + STOP_MARGIN_MS,
    isOwner: () => liveOwner(path)?.pid === owner.pid,
  });
}

/** The homes a command acts on, each with the options that select it (`--all`: every profile). */
function targets(
  options: GlobalOptions & { all?: boolean },
): { home: string; options: GlobalOptions; name: string | null }[] {
  if (!options.all) return [{ home: homeOf(options), options, name: null }];
  return listProfiles(resolveHome({ env: process.env }).root).map((p) => {
    const { profile: _drop, ...rest } = options;
    return {
      home: p.home,
      // the root home is the profile `default` (docs/configuration.md)
      name: p.name,
      options: p.profile === null ? { ...rest, profile: 'default' } : { ...rest, profile: p.profile },
    };
  });
}

/** `HOME`, or with --all `PROFILE (HOME)`. */
const label = (home: string, name: string | null): string => (name === null ? home : `${name} (${home})`);

function statusLine(s: GatewayStatus, name: string | null = null): string {
  const where = label(s.home, name);
  if (!s.running) return `${where}: not running${s.stale_lock ? ' (stale lock from a gateway that is gone)' : ''}`;
  const platforms = Object.entries(s.platforms)
    .map(([k, v]) => `${k} ${v}${s.platform_errors?.[k] ? ` (${s.platform_errors[k]})` : ''}`)
    .join(', ');
  const plugins = s.plugins_failed?.length ? `, plugins failed: ${s.plugins_failed.join('; ')}` : '';
  return `${where}: running, pid ${s.pid}, up ${s.uptime_s} s, version ${s.version}, ${s.url ?? 'not listening yet'}, health ${s.health}${platforms ? `, platforms: ${platforms}` : ''}${plugins}${clusterPart(s.cluster)}`;
}

/** `, cluster: instance gw-a of 2 (telegram: gw-a, discord: gw-b)` when the gateway is in one. */
function clusterPart(cluster: unknown): string {
  if (typeof cluster !== 'object' || cluster === null || !('instance' in cluster)) return '';
  const c = cluster as { instance: string; members?: unknown[]; holders?: Record<string, string> };
  const holders = Object.entries(c.holders ?? {})
    .map(([p, id]) => `${p}: ${id}`)
    .join(', ');
  return `, cluster: instance ${c.instance} of ${c.members?.length ?? '?'}${holders ? ` (${holders})` : ''}`;
}

/** `hermes gateway status [--json] [--all]`: exit 0 when (every) gateway runs, 3 otherwise. */
export async function statusCommand(options: GlobalOptions & { all?: boolean }): Promise<void> {
  const list = targets(options);
  const statuses = await Promise.all(list.map((t) => gatewayStatus(t.home)));
  if (options.json) {
    const all = statuses.map((s, i) => ({ profile: list[i]?.name ?? null, ...s }));
    process.stdout.write(`${JSON.stringify(options.all ? all : statuses[0], null, 2)}\n`);
  } else {
    statuses.forEach((s, i) => {
      process.stdout.write(`${statusLine(s, list[i]?.name ?? null)}\n`);
    });
  }
  if (!statuses.every((s) => s.running)) throw new CliExit(EXIT_NOT_RUNNING);
}

/** `hermes gateway start [--all]`. */
export async function startCommand(options: GlobalOptions & { all?: boolean }): Promise<void> {
  for (const t of targets(options)) {
    const status = await startGateway(t.options, t.home);
    process.stdout.write(`started: ${statusLine(status, t.name)}\n`);
  }
}

/** `hermes gateway stop [--all]`. */
export async function stopCommand(options: GlobalOptions & { all?: boolean }): Promise<void> {
  for (const { home, options: o, name } of targets(options)) {
    const outcome = await stopGateway(o, home);
    const said = { stopped: 'stopped', killed: 'killed after the drain timeout', not_running: 'was not running' }[
      outcome
    ];
    process.stdout.write(`${label(home, name)}: ${said}\n`);
  }
}

/** `hermes gateway restart [--all]`: graceful stop, then start (a new pid). */
export async function restartCommand(options: GlobalOptions & { all?: boolean }): Promise<void> {
  for (const { home, options: o, name } of targets(options)) {
    await stopGateway(o, home);
    const status = await startGateway(o, home);
    process.stdout.write(`restarted: ${statusLine(status, name)}\n`);
  }
}
