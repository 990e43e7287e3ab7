/** `hermes config show|path|set`. */
import { configPaths, loadConfig, renderConfig, resolveHome, setConfigValue } from '@hermes/config';
import type { GlobalOptions } from '../main.js';
import { loadSettings } from '../runtime.js';
import { recordConsent } from '../trust/record-consent.js';
import { hatchItems, mcpItem, type TrustItem, ttsItem } from '../trust/trust-items.js';

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
export async function configSet(key: string, value: string, options: GlobalOptions, yes = false): Promise<void> {
  const { home } = resolveHome({ env: process.env, ...(options.profile ? { profile: options.profile } : {}) });
  const result = await setConfigValue({ home, key, value });
  // re-read to prove the file is valid as a whole (unless other keys were invalid before)
  if (result.remaining.length === 0) loadConfig({ home, env: {} });
  process.stdout.write(`${key} = ${/key|token|secret|password/i.test(key) ? '***' : value}\n`);
  // a code-loading key set by a human: consent recorded for what it now says
  const items = result.remaining.length === 0 ? configTrustItems(home, key) : [];
  for (const line of recordConsent(home, items, 'hermes config set', yes)) process.stdout.write(`${line}\n`);
  const [first, ...rest] = result.remaining;
  if (first) {
    process.stderr.write(
      `hermes: warning: ${result.path} still has ${result.remaining.length} invalid value${rest.length ? 's' : ''}: ${first.message}\n`,
    );
  }
}

/** The trust items a `config set KEY` touched: hooks_auto_accept, or the mcp_servers or tts.providers entry under KEY. */
function configTrustItems(home: string, key: string): TrustItem[] {
  const config = loadConfig({ home, env: {} }).config;
  if (key === 'hooks_auto_accept') return hatchItems({ config, dotenv: {} });
  const tts = /^tts\.providers\.([^.]+)/.exec(key)?.[1];
  if (tts !== undefined) {
    const entry = config.tts.providers[tts];
    return entry === undefined ? [] : [ttsItem(tts, entry)];
  }
  const server = /^mcp_servers\.([^.]+)/.exec(key)?.[1];
  const entry = server === undefined ? undefined : config.mcp_servers[server];
  return server !== undefined && entry !== undefined ? [mcpItem(server, entry)] : [];
}
