/** Environment variables that override config.yaml keys (env wins over the file). */
import { ERROR_CODES } from '@hermes/protocol';
import { coerceString } from './coerce-value.js';
import { configError } from './config-error.js';
import { describeValue } from './describe-value.js';
import type { EnvLike } from './hermes-config.js';
import { formatKeyPath } from './key-path.js';
import { configSchema, type MutableConfig } from './schema.js';
import { describeExpected, schemaAt } from './schema-walk.js';

type SectionName = { [K in keyof MutableConfig]: MutableConfig[K] extends object ? K : never }[keyof MutableConfig];

export interface EnvOverride {
  env: string;
  /** [section, key]: the config key the variable overrides */
  key: readonly [SectionName, string];
}

/** Every env override, in the order applied. An unset or empty variable is ignored. */
export const ENV_OVERRIDES: readonly EnvOverride[] = Object.freeze([
  { env: 'HERMES_INFERENCE_MODEL', key: ['model', 'default'] },
  { env: 'OPENAI_BASE_URL', key: ['model', 'base_url'] },
  { env: 'OPENAI_API_KEY', key: ['model', 'api_key'] },
  { env: 'HERMES_LOG_LEVEL', key: ['logging', 'level'] },
  { env: 'HERMES_GATEWAY_HOST', key: ['gateway', 'host'] },
  { env: 'HERMES_GATEWAY_PORT', key: ['gateway', 'port'] },
] as const);

function invalid(override: EnvOverride, expected: string, raw: string): Error {
  const key = formatKeyPath(override.key);
  return configError(ERROR_CODES.CONFIG_TYPE, {
    file: null,
    line: null,
    key,
    expected,
    actual: describeValue(raw),
    envVar: override.env,
    message: `${override.env} (env override for ${key}): expected ${expected}, got ${describeValue(raw)}`,
  });
}

/** Returns `config` with ENV_OVERRIDES applied, validating each value; throws CONFIG_TYPE naming the variable. */
export function applyEnvOverrides(config: MutableConfig, env: EnvLike): MutableConfig {
  let current = config;
  for (const override of ENV_OVERRIDES) {
    const given = env[override.env];
    if (given === undefined || given.trim() === '') continue;
    // Log levels are conventionally written in any case in the environment.
    const raw = override.env === 'HERMES_LOG_LEVEL' ? given.trim().toLowerCase() : given;
    const node = schemaAt(configSchema, override.key);
    if (node === undefined) throw new Error(`env override ${override.env} points outside the schema`);
    const coerced = coerceString(node, raw);
    if (!coerced.ok) throw invalid(override, coerced.expected, given);
    const checked = node.safeParse(coerced.value);
    if (!checked.success) {
      // a refinement says what it wants (model.base_url: an http(s) URL) better than the type does
      const custom = checked.error.issues.find((issue) => issue.code === 'custom');
      throw invalid(override, custom?.message ?? describeExpected(node), given);
    }
    const [section, key] = override.key;
    // Re-parsing keeps the result typed; it is idempotent on an already parsed config.
    current = configSchema.parse({ ...current, [section]: { ...current[section], [key]: checked.data } });
  }
  return current;
}
