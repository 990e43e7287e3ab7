/** `hermes config show`: the effective config as YAML. */
import { stringify } from 'yaml';
import type { HermesConfig } from './hermes-config.js';

const SECRET_KEY = /(key|token|secret|password)$/i;
export const MASK = '***';

/** A value that only references variables (`Bearer ${TOKEN}`) holds no secret itself. */
const REFERENCE = /\$\{[A-Za-z_][A-Za-z0-9_]*\}/;

function masked(value: unknown, key: string, parent = ''): unknown {
  if (typeof value === 'string') {
    if (value === '') return value;
    // mcp_servers.<name>.headers: every value is a credential unless it says ${VAR}
    if (parent === 'headers' && !REFERENCE.test(value)) return MASK;
    return SECRET_KEY.test(key) ? MASK : value;
  }
  if (Array.isArray(value)) return value.map((item) => masked(item, ''));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, masked(v, k, key)]));
  }
  return value;
}

/**
 * YAML text of `config`. With `redactSecrets` (the default) every non-empty string under a key
 * ending in key/token/secret/password (model.api_key, platform tokens, webhook_secret), and every
 * value of an MCP server's `headers`, shows as `***` (a header value saying `${VAR}` shows as written: the variable holds the secret).
 */
export function renderConfig(config: HermesConfig, options: { redactSecrets?: boolean } = {}): string {
  const data = options.redactSecrets === false ? config : masked(config, '');
  return stringify(data, { lineWidth: 0 });
}
