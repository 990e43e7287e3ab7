/**
 * What a service unit needs from the installing shell: the model settings and the other
 * documented overrides that are set (plain ones into the unit, secrets into HERMES_HOME/.env, 0600),
 * and a PATH that does not depend on that shell (npx's temporary folders dropped).
 */
import { delimiter, dirname } from 'node:path';
import { ENV_OVERRIDES } from '@hermes/config';

/** Variables the unit never copies: it sets them itself, or they select the profile (ExecStart does). */
const OWN = new Set(['HERMES_HOME', 'HERMES_PROFILE', 'PATH']);
/** Documented variables that configure the gateway besides the config overrides: its own, the platforms', the web providers'. */
const CARRIED_PREFIX = /^(HERMES_|TELEGRAM_|DISCORD_|SLACK_|API_SERVER_|BRAVE_|TAVILY_|FIRECRAWL_|EXA_|SEARXNG_)/;
/** Names whose values are secrets: they go into .env, never into the unit file. */
const SECRET_NAME = /(KEY|TOKEN|SECRET|PASSWORD)$/;

export interface UnitEnvChoice {
  /** written as Environment= lines (systemd) / EnvironmentVariables (launchd) */
  unit: Record<string, string>;
  /** written into HERMES_HOME/.env (mode 0600) */
  dotenv: Record<string, string>;
}

/** Splits the set configuration variables of `env` into the unit's and the .env's. */
export function chooseUnitEnv(env: NodeJS.ProcessEnv): UnitEnvChoice {
  const names = new Set<string>(ENV_OVERRIDES.map((o) => o.env));
  for (const name of Object.keys(env)) if (CARRIED_PREFIX.test(name)) names.add(name);
  const unit: Record<string, string> = {};
  const dotenv: Record<string, string> = {};
  for (const name of [...names].sort()) {
    const value = env[name];
    if (OWN.has(name) || value === undefined || value.trim() === '') continue;
    if (SECRET_NAME.test(name)) dotenv[name] = value;
    else unit[name] = value;
  }
  return { unit, dotenv };
}

/** node's folder, the hermes bin's folder, then the system folders; no npx temporary folder. */
export function servicePath(node: string, bin: string): string {
  const dirs = [dirname(node), dirname(bin), '/usr/local/bin', '/usr/bin', '/bin'];
  const kept = dirs.filter((d) => !/[\\/]_npx[\\/]/.test(`${d}/`));
  return [...new Set(kept)].join(delimiter);
}
