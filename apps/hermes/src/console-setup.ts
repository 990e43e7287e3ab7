/**
 * The operator console's part of `gateway run`: whether it is served (`gateway.console.enabled`,
 * default on loopback only), where its front-end is (`@hermes/console`'s CONSOLE_DIST), and its
 * data ports from the runtime (pairing, sessions and search, plugins and hooks, the log ring).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CONSOLE_DIST } from '@hermes/console';
import {
  type ConsolePluginsPort,
  type ConsoleServerOptions,
  isLoopback,
  LogRing,
  loginLinksPath,
} from '@hermes/gateway';
import { setPluginEnabled } from './commands/plugins-config.js';
import type { AgentRuntime } from './runtime.js';
import { consoleTrust } from './trust/console-trust.js';

/** The front-end's dist directory (`@hermes/console`, built by `npm run build`), or null when it is not built. */
function consoleDist(override: string | undefined): string | null {
  const dist = override ?? CONSOLE_DIST;
  return existsSync(join(dist, 'index.html')) ? dist : null;
}

/** The console's server options, or null when it is off (or its front-end is missing: said in the log). */
export async function consoleOptions(
  rt: AgentRuntime,
  host: string,
  gatewayHooks: ConsolePluginsPort['gatewayHooks'],
): Promise<ConsoleServerOptions | null> {
  const settings = rt.config.gateway.console;
  if (!(settings.enabled ?? isLoopback(host))) return null;
  const dist = consoleDist(rt.env.HERMES_CONSOLE_DIST);
  if (dist === null) {
    // a warning when asked for in config.yaml; by default (loopback) a note
    const say = settings.enabled === true ? rt.logger.warn.bind(rt.logger) : rt.logger.info.bind(rt.logger);
    say('the console front-end (@hermes/console) is not built: the console is not served');
    return null;
  }
  const logs = new LogRing();
  // without the terminal tool nothing the model runs can reach the console from this machine
  const toolsets = rt.config.agent.toolsets;
  const terminalOn = toolsets.includes('*') || toolsets.includes('terminal');
  rt.logTap(logs.push);
  const { store } = rt;
  return {
    dist,
    ...(settings.token !== undefined ? { token: settings.token } : {}),
    loopbackOperator: !terminalOn,
    loginLinks: loginLinksPath(rt.home),
    logs,
    env: rt.env,
    pairing: {
      list: () => store.pairing.list(),
      approve: (platform, code) => store.pairing.approve(platform, code),
      deny: (platform, code) => store.pairing.deny(platform, code),
      revoke: (platform, userId) => store.pairing.revoke(platform, userId),
    },
    sessions: {
      list: (options) => store.sessions.list(options),
      get: (id) => store.sessions.get(id),
      search: async (query, limit) => {
        const hits = await store.sessionSearch.search(query, { limit: limit * 4 });
        return [...new Set(hits.map((h) => h.sessionId))].slice(0, limit);
      },
      messages: (id) => store.transcripts.list(id),
      count: (id) => store.transcripts.count(id),
    },
    plugins: {
      plugins: () =>
        rt.plugins.map((r) => ({
          name: r.key,
          kind: r.manifest?.kind ?? 'unknown',
          state: r.state,
          enabled: r.state === 'enabled',
          ...(r.error ? { error: r.error } : {}),
        })),
      shellHooks: () => [
        ...rt.shellHooks.registered.map((h) => ({ event: h.spec.event, command: h.spec.command, state: 'registered' })),
        ...rt.shellHooks.skipped.map((h) => ({ event: h.spec.event, command: h.spec.command, state: h.state })),
      ],
      gatewayHooks,
      setEnabled: (name, on) => {
        if (!rt.plugins.some((r) => r.key === name)) throw new Error(`no plugin named "${name}"`);
        setPluginEnabled(rt.home, name, on);
      },
    },
    trust: consoleTrust(rt),
  };
}
