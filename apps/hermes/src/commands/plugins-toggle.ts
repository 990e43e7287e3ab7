/** `hermes plugins enable NAME` / `disable NAME`: edit plugins.enabled / plugins.disabled. */
import { loadDotEnv } from '@hermes/config';
import type { PluginSourceKind } from '@hermes/plugins';
import type { GlobalOptions } from '../main.js';
import { recordConsent } from '../trust/record-consent.js';
import { pluginItem } from '../trust/trust-items.js';
import { setPluginEnabled } from './plugins-config.js';
import { offerDeps } from './plugins-deps.js';
import { discoverPlugins } from './plugins-discover.js';
import { envNeeds } from './plugins-entry.js';
import { requireKnownPlugin } from './plugins-known.js';

/** Enables or disables a plugin key (idempotent) and prints what changed; enabling a non-bundled `plugin` records consent for its files when a human runs it. */
export function applyToggle(
  home: string,
  key: string,
  on: boolean,
  plugin?: { dir: string; source: PluginSourceKind },
  yes = false,
): void {
  const { changes } = setPluginEnabled(home, key, on);
  const verb = on ? 'enabled' : 'disabled';
  if (changes.length === 0) process.stdout.write(`${key} is already ${verb}\n`);
  else process.stdout.write(`${verb} ${key} (${changes.join(', ')})\n`);
  if (on && plugin !== undefined && plugin.source !== 'bundled') {
    const item = pluginItem({ key, ...plugin });
    for (const line of recordConsent(home, [item], 'hermes plugins enable', yes)) process.stdout.write(`${line}\n`);
  }
}

/** The required variables of a manifest that neither the environment nor HOME/.env sets. */
export function missingEnv(home: string, manifest: unknown): string[] {
  const merged = loadDotEnv(home, process.env).merged;
  return envNeeds(manifest)
    .map((n) => n.name)
    .filter((name) => !merged[name]);
}

/** `hermes plugins enable NAME`. */
export async function pluginsEnable(key: string, options: GlobalOptions, yes = false): Promise<void> {
  const { home, records } = await discoverPlugins(options, false);
  const record = requireKnownPlugin(key, records);
  applyToggle(home, key, true, record, yes);
  const missing = missingEnv(home, record.manifest);
  if (missing.length > 0) {
    process.stdout.write(
      `note: ${key} will not load until ${missing.join(', ')} is set (in the environment or ${home}/.env)\n`,
    );
  }
  await offerDeps(home, key, record.manifest, options, yes);
}

/** `hermes plugins disable NAME`. */
export async function pluginsDisable(key: string, options: GlobalOptions): Promise<void> {
  const { home, records } = await discoverPlugins(options, false);
  requireKnownPlugin(key, records);
  applyToggle(home, key, false);
}
