/**
 * The environment terminal commands get: an allowlist, never the gateway's whole environment
 * (which holds platform tokens, model keys, database URLs...).
 */
import { AGENT_TERMINAL_MARKER } from '@hermes/protocol';

/** Names always passed when set. LC_* (locale only) are passed too. */
export const TERMINAL_ENV_ALLOWLIST: readonly string[] = ['PATH', 'HOME', 'LANG', 'TERM'];

/** PATH when the gateway's environment has none. */
export const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

const LOCALE_NAME = /^LC_[A-Z_]+$/;

/** The scrubbed environment: PATH, HOME, LANG, TERM, LC_* and the `passthrough` names, from `source`, plus the agent-terminal marker. */
export function terminalEnv(source: NodeJS.ProcessEnv, passthrough: readonly string[] = []): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined) continue;
    if (TERMINAL_ENV_ALLOWLIST.includes(name) || LOCALE_NAME.test(name) || passthrough.includes(name)) {
      env[name] = value;
    }
  }
  env.PATH ??= DEFAULT_PATH;
  // marks the agent's own commands: `hermes console url` and the consent-giving commands refuse under it
  env[AGENT_TERMINAL_MARKER] = '1';
  return env;
}
