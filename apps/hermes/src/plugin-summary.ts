/** The `/plugins` view: `✓ calculator v1.0.0 (2 tools, 1 hooks)` per plugin. */
import type { PluginRecord } from '@hermes/plugins';

/** Renders the plugin list the way the seed's `/plugins` does. */
export function pluginSummary(records: readonly PluginRecord[]): string {
  const lines = [`Plugins (${records.length}):`];
  for (const r of records) {
    const version = r.manifest ? ` v${r.manifest.version}` : '';
    if (r.state === 'enabled') {
      lines.push(`  ✓ ${r.key}${version} (${r.tools.length} tools, ${r.hooks.length} hooks)`);
    } else {
      lines.push(`  ✗ ${r.key}${version} (${r.state.replace('_', ' ')}${r.error ? `: ${r.error}` : ''})`);
    }
  }
  return lines.join('\n');
}
