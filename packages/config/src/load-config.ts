/** Loads `<home>/config.yaml`: defaults, then the file, then env overrides; deep-frozen. */
import { configPaths } from './config-paths.js';
import type { ConfigWarning } from './config-warning.js';
import { deepFreeze } from './deep-freeze.js';
import { applyEnvOverrides } from './env-overrides.js';
import { readTextIfExists } from './fs-helpers.js';
import type { EnvLike, HermesConfig } from './hermes-config.js';
import { parseConfigText } from './parse-config-text.js';
import { configSchema } from './schema.js';

export interface LoadConfigResult {
  config: HermesConfig;
  warnings: readonly ConfigWarning[];
  /** absolute path of config.yaml */
  path: string;
  /** false when config.yaml does not exist (the config is then all defaults plus env overrides) */
  exists: boolean;
}

/**
 * Loads and validates config.yaml of `home`. Unknown keys and hook events are warnings; a syntax
 * error throws ConfigError CONFIG_SYNTAX, a wrong type (file or env override) CONFIG_TYPE.
 */
export function loadConfig(options: { home: string; env: EnvLike }): LoadConfigResult {
  const { config: path } = configPaths(options.home);
  const text = readTextIfExists(path);
  const parsed = text === null ? { config: configSchema.parse({}), warnings: [] } : parseConfigText(text, path);
  const config = deepFreeze(applyEnvOverrides(parsed.config, options.env));
  return { config, warnings: Object.freeze(parsed.warnings), path, exists: text !== null };
}

/** The all-defaults config (no file, no environment), deep-frozen. */
export function defaultConfig(): HermesConfig {
  return deepFreeze(configSchema.parse({}));
}
