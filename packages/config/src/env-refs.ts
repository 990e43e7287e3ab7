/** `${VAR}` references in config values (mcp_servers env and headers), filled from the environment. */
import type { EnvLike } from './hermes-config.js';

const REF = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The names `value` references, in order. */
export function envRefs(value: string): string[] {
  return [...value.matchAll(REF)].map((m) => m[1] as string);
}

/**
 * `value` with each `${VAR}` replaced by the environment's value (HERMES_HOME/.env is applied to it
 * at start). A reference to an unset or empty variable throws, naming the variable and `where`.
 */
export function expandEnvRefs(value: string, env: EnvLike, where: string): string {
  return value.replace(REF, (_, name: string) => {
    const found = env[name];
    if (found === undefined || found === '') throw new Error(`${where} references \${${name}}, which is not set`);
    return found;
  });
}

/**
 * The secrets of `mcp_servers`: every header value and every env value that references a variable or
 * has a credential name, as resolved (and the token after a `Bearer `/`Basic ` scheme).
 */
export function mcpSecretValues(
  servers: Readonly<
    Record<string, { env: Readonly<Record<string, string>>; headers: Readonly<Record<string, string>> }>
  >,
  env: EnvLike,
  isSecretName: (name: string) => boolean,
): string[] {
  const found: string[] = [];
  const add = (raw: string) => {
    const value = raw.replace(REF, (whole, name: string) => env[name] ?? whole);
    found.push(value);
    const token = /^(?:Bearer|Basic|Token)\s+(\S+)$/i.exec(value)?.[1];
    if (token) found.push(token);
  };
  for (const server of Object.values(servers)) {
    for (const value of Object.values(server.headers)) add(value);
    for (const [key, value] of Object.entries(server.env)) {
      if (isSecretName(key) || envRefs(value).length > 0) add(value);
    }
  }
  return found;
}
