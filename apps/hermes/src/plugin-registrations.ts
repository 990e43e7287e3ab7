/**
 * Loads the enabled plugins only for what they register (CLI commands, model profiles, skills,
 * doctor's checks): no hooks fire, tools go to a throwaway registry, the logger is silent. Only
 * the enabled plugins the operator approved run (trust/plugin-consent.ts); the others are listed
 * as `not_approved`.
 */
import { join } from 'node:path';
import { ToolRegistry } from '@hermes/agent';
import type { HermesConfig } from '@hermes/config';
import { HookBus, loadPlugins, type PluginRecord, PluginRegistries } from '@hermes/plugins';
import { silentLogger } from '@hermes/protocol';
import { pluginAliases, pluginSources } from './plugin-sources.js';
import { markNotApproved, pluginConsent } from './trust/plugin-consent.js';

export async function pluginRegistrations(options: {
  home: string;
  config: HermesConfig;
  env: Readonly<Record<string, string | undefined>>;
  /** only the plugins whose key passes are looked at */
  only?: (key: string) => boolean;
}): Promise<{ registries: PluginRegistries; records: PluginRecord[] }> {
  const registries = new PluginRegistries();
  const consent = pluginConsent(options);
  const records = await loadPlugins({
    dirs: pluginSources({ home: options.home, cwd: process.cwd(), env: options.env }),
    aliases: pluginAliases(),
    enabled: consent.enabled,
    disabled: options.config.plugins.disabled,
    env: options.env,
    tools: new ToolRegistry(),
    hooks: new HookBus(),
    logger: silentLogger,
    // ctx.dataDir as at run time, never the plugin's code folder (whose files the consent is bound to)
    host: { registries, dataRoot: join(options.home, 'plugin-data') },
    ...(options.only ? { only: options.only } : {}),
  });
  return { registries, records: markNotApproved(records, consent.pending) };
}
