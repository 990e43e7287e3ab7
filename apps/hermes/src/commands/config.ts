/** `hermes config show|path|set`. */
import { configPaths, loadConfig, renderConfig, resolveHome, setConfigValue } from '@hermes/config';
import type { GlobalOptions } from '../main.js';
import { loadSettings } from '../runtime.js';

/** Prints the effective configuration, secrets masked. */
export async function configShow(options: GlobalOptions): Promise<void> {
  const { config } = loadSettings(options);
  if (options.json) {
    const masked = JSON.parse(JSON.stringify(config)) as { model: { api_key: string } };
    if (masked.model.api_key) masked.model.api_key = '***';
    process.stdout.write(`${JSON.stringify(masked, null, 2)}\n`);
    return;
  }
  process.stdout.write(renderConfig(config, { redactSecrets: true }));
}

/** Prints where config.yaml is (whether or not it exists). */
export async function configPath(options: GlobalOptions): Promise<void> {
  const { home } = resolveHome({ env: process.env, ...(options.profile ? { profile: options.profile } : {}) });
  process.stdout.write(`${configPaths(home).config}\n`);
}

/** Sets one key, validated, comments kept. */
export async function configSet(key: string, value: string, options: GlobalOptions): Promise<void> {
  const { home } = resolveHome({ env: process.env, ...(options.profile ? { profile: options.profile } : {}) });
  const result = await setConfigValue({ home, key, value });
  // re-read to prove the file is valid as a whole (unless other keys were invalid before)
  if (result.remaining.length === 0) loadConfig({ home, env: {} });
  process.stdout.write(`${key} = ${/key|token|secret|password/i.test(key) ? '***' : value}\n`);
  const [first, ...rest] = result.remaining;
  if (first) {
    process.stderr.write(
      `hermes: warning: ${result.path} still has ${result.remaining.length} invalid value${rest.length ? 's' : ''}: ${first.message}\n`,
    );
  }
}
