/** `<home>/.env`: secrets as KEY=VALUE. The process environment always wins over the file. */
import { join } from 'node:path';
import { parse } from 'dotenv';
import { readTextIfExists } from './fs-helpers.js';
import type { EnvLike } from './hermes-config.js';

export interface DotEnvResult {
  /** path of the .env file */
  path: string;
  exists: boolean;
  /** the file's variables */
  values: Readonly<Record<string, string>>;
  /** `{...values, ...env}` without unset entries: what the process sees after applyDotEnv */
  merged: Readonly<Record<string, string>>;
}

function definedEntries(env: EnvLike): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  return out;
}

/** Reads and parses `<home>/.env` (missing file = no values); never touches process.env. */
export function loadDotEnv(home: string, env: EnvLike): DotEnvResult {
  const path = join(home, '.env');
  const text = readTextIfExists(path);
  const values = text === null ? {} : parse(text);
  return { path, exists: text !== null, values, merged: { ...values, ...definedEntries(env) } };
}

/** Copies into `targetEnv` each value whose key is not already set there; returns the keys it set. */
export function applyDotEnv(
  values: Readonly<Record<string, string>>,
  targetEnv: Record<string, string | undefined>,
): string[] {
  const applied: string[] = [];
  for (const [key, value] of Object.entries(values)) {
    if (targetEnv[key] !== undefined) continue;
    targetEnv[key] = value;
    applied.push(key);
  }
  return applied;
}
