/** The `/plugins` view: `✓ calculator v1.0.0 (2 tools, 1 hooks)` per plugin. */
import type { PluginRecord } from '@hermes/plugins';
import { firstLine } from './console-lines.js';

/** Why a plugin is not on, in one short phrase: `env missing: X`, `failed: <first line>`, `not enabled`. */
export function whyNotOn(r: Pick<PluginRecord, 'state' | 'error'>, max?: number): string {
  // env_missing's error already reads "missing: X": said once
  if (r.state === 'not_approved' && r.error) return r.error;
  if (r.state === 'env_missing' && r.error) return `env missing: ${r.error.replace(/^missing: /, '')}`;
  return `${r.state.replace('_', ' ')}${r.error ? `: ${firstLine(r.error, max)}` : ''}`;
}

/** Renders the plugin list the way the seed's `/plugins` does. */
export function pluginSummary(records: readonly PluginRecord[]): string {
  const lines = [`Plugins (${records.length}):`];
  for (const r of records) {
    const version = r.manifest ? ` v${r.manifest.version}` : '';
    if (r.state === 'enabled') {
      lines.push(`  ✓ ${r.key}${version} (${r.tools.length} tools, ${r.hooks.length} hooks)`);
    } else {
      lines.push(`  ✗ ${r.key}${version} (${whyNotOn(r)})`);
    }
  }
  return lines.join('\n');
}
