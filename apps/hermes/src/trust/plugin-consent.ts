/**
 * Which enabled plugins a command may load: the bundled ones, and the others only while the
 * operator's approval matches their files (the same rule as a gateway start). Every command that
 * runs plugins' register() (plugins list, doctor, skills, model list, fallback, plugin CLI commands,
 * the interactive list) takes its list from here, so a plugin written into HERMES_HOME and named in
 * plugins.enabled by anyone but the operator never runs, whatever command is typed.
 */
import type { PluginRecord } from '@hermes/plugins';
import type { Settings } from '../settings.js';
import { approveCommand, trustStates } from './trust-gate.js';
import { enabledForeignPlugins, pluginItem } from './trust-items.js';
import { TrustStore } from './trust-store.js';

export interface PluginConsent {
  /** plugins.enabled without the ones awaiting approval */
  enabled: string[];
  /** enabled plugins not approved (new, or changed since approval) */
  pending: string[];
}

export function pluginConsent(settings: Pick<Settings, 'home' | 'env' | 'config'>): PluginConsent {
  const items = enabledForeignPlugins(settings).map(pluginItem);
  const { store } = TrustStore.load(settings.home);
  const blocked = new Set(
    trustStates(store, items)
      .filter((s) => s.state !== 'approved')
      .map((s) => s.item.id),
  );
  const enabled = settings.config.plugins.enabled;
  return {
    enabled: enabled.filter((key) => !blocked.has(`plugin:${key}`)),
    pending: enabled.filter((key) => blocked.has(`plugin:${key}`)),
  };
}

/** Shows the plugins left out as `not_approved`, naming the command that approves them. */
export function markNotApproved(records: PluginRecord[], pending: readonly string[]): PluginRecord[] {
  const waiting = new Set(pending);
  for (const record of records) {
    if (!waiting.has(record.key)) continue;
    record.state = 'not_approved';
    record.error = `not approved: its files are new or changed since approval; run \`${approveCommand(`plugin:${record.key}`)}\``;
  }
  return records;
}
