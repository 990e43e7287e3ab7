/** Values that must never appear in logs or tool output. */
import type { EnvLike, HermesConfig } from './hermes-config.js';

/** Secrets shorter than this are ignored: redacting them would shred ordinary text. */
export const MIN_SECRET_LENGTH = 6;

const SECRET_ENV_NAME = /(TOKEN|KEY|SECRET|PASSWORD)$/i;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * model.api_key, the values of env vars named *TOKEN / *KEY / *SECRET / *PASSWORD, platform settings
 * named the same way (gateway.platforms.*.webhook_secret), and each `logging.redact` entry (the value of the env var it names, else the entry itself as a literal).
 * Deduplicated, longest first, entries shorter than MIN_SECRET_LENGTH dropped.
 */
export function secretValues(config: HermesConfig, env: EnvLike): string[] {
  const found = new Set<string>([config.model.api_key]);
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && SECRET_ENV_NAME.test(name)) found.add(value);
  }
  // secrets kept in platform settings (e.g. gateway.platforms.telegram.webhook_secret)
  for (const settings of Object.values(config.gateway.platforms)) {
    for (const [key, value] of Object.entries(settings)) {
      if (typeof value === 'string' && SECRET_ENV_NAME.test(key)) found.add(value);
    }
  }
  for (const entry of config.logging.redact) {
    const fromEnv = ENV_NAME.test(entry) ? env[entry] : undefined;
    found.add(fromEnv ?? entry);
  }
  return [...found].filter((value) => value.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
}
