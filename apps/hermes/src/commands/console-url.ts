/**
 * `hermes console url`: a one-time login URL for the operator console (valid 10 minutes, once).
 * The URL of the running gateway (its lock), else the configured host and port. Refused inside the
 * agent's own terminal tool: a login link is for the person at this machine, not for the model.
 */
import { loadConfig, resolveHome } from '@hermes/config';
import { createLoginLink, LOGIN_LINK_TTL_MS, loginLinksPath } from '@hermes/gateway';
import { AGENT_TERMINAL_MARKER, EXIT } from '@hermes/protocol';
import { CliExit } from '../cli-error.js';
import type { GlobalOptions } from '../main.js';
import { liveOwner, lockPath } from '../service/pid-lock.js';

export async function consoleUrl(options: GlobalOptions): Promise<void> {
  if (process.env[AGENT_TERMINAL_MARKER] === '1') {
    throw new CliExit(EXIT.USAGE, 'hermes console url is refused inside the agent terminal: run it yourself');
  }
  const { home } = resolveHome({ env: process.env, ...(options.profile ? { profile: options.profile } : {}) });
  const owner = liveOwner(lockPath(home));
  let base = owner?.url ?? null;
  if (base === null) {
    const { config } = loadConfig({ home, env: process.env });
    const host = process.env.HERMES_GATEWAY_HOST ?? config.gateway.host;
    base = `http://${host.includes(':') ? `[${host}]` : host}:${config.gateway.port}`;
    process.stderr.write('hermes: the gateway is not running: the link works once it is (within 10 minutes)\n');
  }
  const token = createLoginLink(loginLinksPath(home));
  process.stdout.write(`${base}/console/login?token=${token}\n`);
  process.stderr.write(`valid for ${LOGIN_LINK_TTL_MS / 60_000} minutes, once\n`);
}
