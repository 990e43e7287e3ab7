/** The public config type: the schema's output, deep-readonly (the object is deep-frozen too). */
import type { DeepReadonly } from './deep-freeze.js';
import type { MutableConfig } from './schema.js';

export type HermesConfig = DeepReadonly<MutableConfig>;

/** One `hooks:` entry of config.yaml. */
export type ShellHookConfig = HermesConfig['hooks'][string][number];

/** `gateway.platforms.<name>`: `enabled` plus the adapter's own keys. */
export type PlatformConfig = HermesConfig['gateway']['platforms'][string];

export type ConfigLogLevel = HermesConfig['logging']['level'];

/** An environment: `process.env` or any plain record of strings. */
export type EnvLike = Readonly<Record<string, string | undefined>>;
