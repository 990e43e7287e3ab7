/** Finds (and optionally loads) every plugin the way a real run would, with throwaway registries. */
import { ToolRegistry } from '@hermes/agent';
import { HookBus, loadPlugins, type PluginRecord } from '@hermes/plugins';
import { silentLogger } from '@hermes/protocol';
import type { GlobalOptions } from '../main.js';
import { pluginAliases, pluginSources } from '../plugin-sources.js';
import { loadSettings } from '../runtime.js';
import { markNotApproved, pluginConsent } from '../trust/plugin-consent.js';

export interface Discovered {
  home: string;
  records: PluginRecord[];
}

/**
 * Discovers plugins from every source. With `load`, the config's enabled plugins run register()
 * against a throwaway registry (so failures and missing env show); without it only plugins that load
 * without opt-in (bundled platform/backend kinds, unless disabled) run. An enabled plugin the
 * operator has not approved never runs: it is listed as `not_approved`.
 */
export async function discoverPlugins(options: GlobalOptions, load: boolean): Promise<Discovered> {
  const { home, config, env } = loadSettings(options);
  const consent = pluginConsent({ home, config, env });
  const records = await loadPlugins({
    dirs: pluginSources({ home, cwd: process.cwd(), env }),
    aliases: pluginAliases(),
    enabled: load ? consent.enabled : [],
    disabled: config.plugins.disabled,
    env,
    tools: new ToolRegistry(),
    hooks: new HookBus(),
    logger: silentLogger,
  });
  return { home, records: load ? markNotApproved(records, consent.pending) : records };
}
