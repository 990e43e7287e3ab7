/** Where plugins are discovered, in precedence order (a later source overrides an earlier key). */
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import type { PluginSource } from '@hermes/plugins';

/** The repository's bundled plugins folder (next to apps/). */
export const BUNDLED_PLUGINS_DIR = fileURLToPath(new URL('../../../plugins', import.meta.url));

/** Bundled, then HERMES_HOME/plugins, then ./.hermes/plugins when HERMES_ENABLE_PROJECT_PLUGINS=true. */
export function pluginSources(options: { home: string; cwd: string; env: Readonly<Record<string, string | undefined>> }): PluginSource[] {
  const sources: PluginSource[] = [
    { dir: BUNDLED_PLUGINS_DIR, source: 'bundled' },
    { dir: join(options.home, 'plugins'), source: 'user' },
  ];
  if (options.env.HERMES_ENABLE_PROJECT_PLUGINS === 'true') {
    sources.push({ dir: join(options.cwd, '.hermes', 'plugins'), source: 'project' });
  }
  return sources;
}
