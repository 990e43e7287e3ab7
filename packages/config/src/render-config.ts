/** `hermes config show`: the effective config as YAML. */
import { stringify } from 'yaml';
import type { HermesConfig } from './hermes-config.js';

const SECRET_KEY = /(key|token|secret|password)$/i;
export const MASK = '***';

function masked(value: unknown, key: string): unknown {
  if (typeof value === 'string') return value !== '' && SECRET_KEY.test(key) ? MASK : value;
  if (Array.isArray(value)) return value.map((item) => masked(item, ''));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, masked(v, k)]));
  }
  return value;
}

/**
 * YAML text of `config`. With `redactSecrets` (the default) every non-empty string under a key
 * ending in key/token/secret/password (model.api_key, platform tokens, webhook_secret) shows as `***`.
 */
export function renderConfig(config: HermesConfig, options: { redactSecrets?: boolean } = {}): string {
  const data = options.redactSecrets === false ? config : masked(config, '');
  return stringify(data, { lineWidth: 0 });
}
