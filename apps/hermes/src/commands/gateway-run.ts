/** `hermes gateway run`: the gateway in the foreground, what a service manager or container runs. */
import { homeModeWarning, makePrivateDir, resolveHome } from '@hermes/config';
import { EXIT } from '@hermes/protocol';
import { CliExit, exitCodeFor } from '../cli-error.js';
import { pluginFailureLine } from '../console-lines.js';
import { buildGatewayApp, KEYLESS_WARNING } from '../gateway-app.js';
import type { GlobalOptions } from '../main.js';
import { handleReloadSignals } from '../reload/reload-signal.js';
import { handleCronSignals } from '../service/cron-signal.js';
import { acquireLock, type LockInfo, liveOwner, lockPath, releaseLock, updateLock } from '../service/pid-lock.js';
import { stopProcess } from '../service/stop-process.js';
import { StartupPhases } from '../startup-phases.js';
import { VERSION } from '../version.js';

export interface RunOptions {
  /** take over from a running gateway of the same HERMES_HOME (graceful stop, then start) */
  replace?: boolean;
}

/** How long `--replace` waits for the old gateway to drain and exit before killing it. */
const REPLACE_WAIT_MS = 60_000;

function describeOwner(owner: LockInfo): string {
  const since = owner.startedAt ? ` since ${new Date(owner.startedAt).toISOString()}` : '';
  return `pid ${owner.pid}${since}${owner.url ? ` at ${owner.url}` : ''}`;
}

/** Takes the HERMES_HOME lock (replacing the running gateway when asked); exits 1 naming the running pid otherwise. */
async function takeLock(home: string, replace: boolean): Promise<void> {
  const path = lockPath(home);
  const warning = homeModeWarning(home);
  if (warning) process.stderr.write(`hermes: warning: ${warning}\n`);
  makePrivateDir(home);
  let result = acquireLock(path, { version: VERSION, home });
  if (!result.ok && replace) {
    process.stderr.write(`hermes: replacing the running gateway (${describeOwner(result.owner)})\n`);
    await stopProcess(result.owner.pid, { graceMs: REPLACE_WAIT_MS, isOwner: () => liveOwner(path) !== null });
    result = acquireLock(path, { version: VERSION, home });
  }
  if (!result.ok) {
    throw new CliExit(
      EXIT.ERROR,
      `a gateway is already running for ${home} (${describeOwner(result.owner)}); ` +
        'stop it with `hermes gateway stop`, or take over with `hermes gateway run --replace`',
    );
  }
  if (result.tookOverStale) {
    process.stderr.write(`hermes: took over a stale gateway lock (pid ${result.tookOverStale.pid} is gone)\n`);
  }
}

/** Runs until SIGINT/SIGTERM, then stops gracefully (drain up to gateway.drain_timeout_s); SIGHUP reloads. */
export async function runGateway(options: GlobalOptions, run: RunOptions = {}): Promise<void> {
  const phases = new StartupPhases();
  // node's own start, the CLI and the modules this command imports statically
  phases.mark('modules');
  const { home } = resolveHome({ env: process.env, ...(options.profile ? { profile: options.profile } : {}) });
  // before the lock names this process: `hermes cron ...` may signal it from then on
  const cronSignals = handleCronSignals();
  await takeLock(home, run.replace === true);
  phases.mark('lock');
  const path = lockPath(home);
  // from here a SIGHUP reloads (one during start-up, once listening) instead of ending the process
  const reloads = handleReloadSignals();
  try {
    let app: Awaited<ReturnType<typeof buildGatewayApp>>;
    try {
      app = await buildGatewayApp(options, phases);
    } catch (err) {
      // invalid configuration exits 78 so a supervisor does not restart-loop
      const code = exitCodeFor(err);
      throw new CliExit(code === EXIT.ERROR ? EXIT.ERROR : code, err instanceof Error ? err.message : String(err));
    }
    const stopping = new Promise<NodeJS.Signals>((resolve) => {
      process.once('SIGINT', () => resolve('SIGINT'));
      process.once('SIGTERM', () => resolve('SIGTERM'));
      // a restart asked of a supervisor: drain, then exit 75
      process.once('SIGUSR1', () => resolve('SIGUSR1'));
    });
    const url = await app.listen();
    updateLock(path, { url });
    if (app.keyless) process.stderr.write(`hermes: warning: ${KEYLESS_WARNING}\n`);
    const failed = app.rt.plugins.filter((p) => p.state === 'failed').map((p) => p.key);
    process.stderr.write(
      `hermes gateway listening on ${url} (platforms: ${app.platformNames().join(', ')})${
        failed.length > 0 ? `; degraded: plugin${failed.length > 1 ? 's' : ''} ${failed.join(', ')} failed to load` : ''
      }\n`,
    );
    for (const p of app.rt.plugins) if (p.state === 'failed') process.stderr.write(`hermes: ${pluginFailureLine(p)}\n`);
    reloads.ready(app, options);
    cronSignals.ready(app);
    // the platforms connect after the gateway is healthy (/health `degraded` until they have)
    void app.platformsStarted().then(() => {
      const states = Object.entries(app.platformStates()).map(
        ([name, st]) => `${name} ${st.state}${st.error ? ` (${st.error})` : ''}`,
      );
      process.stderr.write(`hermes gateway platforms started: ${states.join(', ') || 'none'}\n`);
    });
    const signal = await stopping;
    process.stderr.write(`hermes gateway stopping (${signal}): draining...\n`);
    await reloads.stopping();
    await app.stop();
    process.stderr.write('hermes gateway stopped\n');
    if (signal === 'SIGUSR1') throw new CliExit(EXIT.RESTART, '');
  } finally {
    reloads.dispose();
    cronSignals.dispose();
    releaseLock(path);
  }
}
