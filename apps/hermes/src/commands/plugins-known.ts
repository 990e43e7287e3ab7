/** NAME arguments must be discovered plugin keys; a typo gets a suggestion. */
import { closestMatch } from '@hermes/config';
import type { PluginRecord } from '@hermes/plugins';
import { CliExit } from '../cli-error.js';

/** The record for `key`, or a CliExit(1) naming the known keys and the closest one. */
export function requireKnownPlugin(key: string, records: readonly PluginRecord[]): PluginRecord {
  const found = records.find((r) => r.key === key);
  if (found) return found;
  const keys = records.map((r) => r.key);
  const guess = closestMatch(key, keys);
  const known = keys.length > 0 ? keys.join(', ') : '(none)';
  throw new CliExit(1, `unknown plugin '${key}'; known: ${known}${guess ? ` (did you mean '${guess}'?)` : ''}`);
}
