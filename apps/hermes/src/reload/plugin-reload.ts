/**
 * The plugin part of a reload: the plugins enabled now (and approved, trust.json) that are not
 * loaded load; loaded ones no longer enabled or approved unload (their tools, hooks, commands,
 * skills and providers go). Platform and backend plugins are left as they are: their adapters and
 * providers are built at start, so a change to them needs a restart.
 */
import type { PluginRecord } from '@hermes/plugins';
import type { AgentRuntime } from '../runtime.js';
import type { Settings } from '../settings.js';
import type { TrustGate } from '../trust/trust-gate.js';
import type { ReloadFailure } from './reload-result.js';

export interface PartReport {
  changed: string[];
  failed: ReloadFailure[];
  restart: string[];
}

/** Built at start and never swapped: a change to these plugins waits for a restart. */
const startOnly = (r: PluginRecord): boolean => r.manifest?.kind === 'platform' || r.manifest?.kind === 'backend';

const listed = (what: string, names: readonly string[]): string =>
  names.length === 0 ? '' : ` (${what}: ${names.join(', ')})`;

/** Loads and unloads plugins to match `next`'s plugins.enabled / disabled and the trust gate; updates rt.plugins in place. */
export async function reloadPlugins(rt: AgentRuntime, next: Settings, trust: TrustGate): Promise<PartReport> {
  const report: PartReport = { changed: [], failed: [], restart: [] };
  const { enabled, disabled } = next.config.plugins;
  const wanted = (key: string) => enabled.includes(key) && !disabled.includes(key);
  const records = rt.plugins;
  // unload: loaded, and no longer enabled or no longer approved
  for (const r of records) {
    if (r.state !== 'enabled' || startOnly(r)) continue;
    const approved = trust.allows(`plugin:${r.key}`);
    if (wanted(r.key) && approved) continue;
    rt.pluginLoader.unload(r.key);
    report.changed.push(
      `plugin ${r.key} unloaded${approved ? '' : ' (its approval was revoked or its files changed)'}`,
    );
    Object.assign(r, {
      state: disabled.includes(r.key) ? 'disabled' : 'not_enabled',
      tools: [],
      hooks: [],
      commands: [],
    });
  }
  // a platform or backend plugin switched on or off: reported, left as it is
  for (const r of records) {
    if (!startOnly(r)) continue;
    const on = r.state === 'enabled';
    const off = disabled.includes(r.key);
    const switchedOn = !on && ((r.state === 'disabled' && !off) || (r.state === 'not_enabled' && wanted(r.key)));
    if ((on && off) || switchedOn) report.restart.push(`plugin ${r.key}`);
  }
  const byKey = new Map(records.map((r) => [r.key, r]));
  const toLoad = enabled.filter((key) => {
    const r = byKey.get(key);
    return wanted(key) && r?.state !== 'enabled' && !(r && startOnly(r));
  });
  // one not approved stays out (the reload reports the trust gate's pending items)
  const approved = toLoad.filter((key) => trust.allows(`plugin:${key}`));
  const loaded =
    approved.length === 0
      ? []
      : await rt.pluginLoader.load({ enabled: approved, disabled, only: (key) => approved.includes(key) });
  for (const r of loaded) {
    const i = records.findIndex((x) => x.key === r.key);
    if (i >= 0) records[i] = r;
    else records.push(r);
    if (r.state === 'enabled' && startOnly(r)) {
      // a plugin folder added since start that turns out to be a platform: unloaded again
      rt.pluginLoader.unload(r.key);
      Object.assign(r, { state: 'not_enabled', tools: [], hooks: [], commands: [] });
      report.restart.push(`plugin ${r.key}`);
    } else if (r.state === 'enabled') {
      report.changed.push(`plugin ${r.key} loaded${listed('tools', r.tools)}${listed('commands', r.commands)}`);
    } else if (r.state === 'failed' || r.state === 'env_missing' || r.state === 'deps_missing') {
      report.failed.push({ what: `plugin ${r.key}`, reason: r.error ?? r.state });
    }
  }
  for (const key of approved) {
    if (!loaded.some((r) => r.key === key))
      report.failed.push({ what: `plugin ${key}`, reason: 'no such plugin found' });
  }
  // a memory provider is picked at start (memory.provider)
  for (const reg of rt.registries.memoryProviders.values()) {
    if (loaded.some((r) => r.key === reg.plugin && r.state === 'enabled')) {
      report.restart.push(`memory provider ${reg.name} (plugin ${reg.plugin})`);
    }
  }
  return report;
}
