/** The `/plugins` view: `✓ calculator v1.0.0 (2 tools, 1 hooks)` per plugin. */
import type { PluginRecord } from '@hermes/plugins';
import { firstLine } from './console-lines.js';

/** Renders the plugin list the way the seed's `/plugins` does. */
export function pluginSummary(records: readonly PluginRecord[]): string {
  const lines = [`Plugins (${records.length}):`];
  for (const r of records) {
    const version = r.manifest ? ` v${r.manifest.version}` : '';
    if (r.state === 'enabled') {
      lines.push(`  ✓ ${r.key}${version} (${r.tools.length} tools, ${r.hooks.length} hooks)`);
    } else {
      // env_missing's error already reads "missing: X"; a failure shows its first line
      const why =
        r.state === 'env_missing' && r.error
          ? `env missing: ${r.error.replace(/^missing: /, '')}`
          : `${r.state.replace('_', ' ')}${r.error ? `: ${firstLine(r.error)}` : ''}`;
      lines.push(`  ✗ ${r.key}${version} (${why})`);
    }
  }
  return lines.join('\n');
}
