/**
 * `hermes gateway reload`: sends SIGHUP to the gateway of this HERMES_HOME (the pid in its lock)
 * and waits for the result it writes (HERMES_HOME/gateway.reload.json); prints what changed, what
 * failed and why, and what needs a restart. Exit: 0 applied, 75 applied but some changes need a
 * restart, 1 a part failed (or no gateway runs), 78 the new config is invalid (nothing changed).
 */
import { resolveHome } from '@hermes/config';
import { EXIT } from '@hermes/protocol';
import { CliExit } from '../cli-error.js';
import type { GlobalOptions } from '../main.js';
import { type ReloadResult, readReloadResult, reloadExitCode, reloadLines } from '../reload/reload-result.js';
import { liveOwner, lockPath } from '../service/pid-lock.js';

/** How long the command waits for the gateway's result (MCP servers and plugins load within it). */
const RESULT_TIMEOUT_MS = 120_000;
const POLL_MS = 50;

/** Waits for the result of a reload of `pid` begun at or after `since`. */
async function waitForResult(home: string, pid: number, since: number): Promise<ReloadResult> {
  const deadline = Date.now() + RESULT_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const result = readReloadResult(home);
    if (result !== null && result.pid === pid && result.started_at >= since) return result;
    if (liveOwner(lockPath(home))?.pid !== pid) {
      throw new CliExit(EXIT.ERROR, `the gateway (pid ${pid}) stopped before it reported the reload`);
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  throw new CliExit(
    EXIT.ERROR,
    `the gateway (pid ${pid}) did not report the reload within ${RESULT_TIMEOUT_MS / 1000} s; see \`hermes logs\``,
  );
}

/** `hermes gateway reload [--json]`. */
export async function reloadCommand(options: GlobalOptions): Promise<void> {
  const { home } = resolveHome({ env: process.env, ...(options.profile ? { profile: options.profile } : {}) });
  const owner = liveOwner(lockPath(home));
  if (!owner)
    throw new CliExit(EXIT.ERROR, `no gateway is running for ${home} (start it with \`hermes gateway start\`)`);
  // the result file's clock is this machine's: a reload begun from now on is ours
  const since = Date.now();
  process.kill(owner.pid, 'SIGHUP');
  const result = await waitForResult(home, owner.pid, since);
  const code = reloadExitCode(result);
  const text = options.json ? JSON.stringify(result, null, 2) : reloadLines(result).join('\n');
  // a failed or refused reload is said on stderr (JSON always goes to stdout)
  const out = options.json || code === EXIT.OK || code === EXIT.RESTART ? process.stdout : process.stderr;
  out.write(`${text}\n`);
  if (code !== EXIT.OK) throw new CliExit(code);
}
