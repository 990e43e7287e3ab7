/** Where plugins are discovered, in precedence order (a later source overrides an earlier key). */

import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PluginSource } from '@hermes/plugins';
import { BUNDLED_PLUGINS_DIR } from './app-paths.js';

export { BUNDLED_PLUGINS_DIR };

/** Bundled, HERMES_HOME/plugins, ./.hermes/plugins (only with HERMES_ENABLE_PROJECT_PLUGINS=true), then npm packages. */
export function pluginSources(options: {
  home: string;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
}): PluginSource[] {
  const sources: PluginSource[] = [
    { dir: BUNDLED_PLUGINS_DIR, source: 'bundled' },
    { dir: join(options.home, 'plugins'), source: 'user' },
  ];
  if (options.env.HERMES_ENABLE_PROJECT_PLUGINS === 'true') {
    sources.push({ dir: join(options.cwd, '.hermes', 'plugins'), source: 'project' });
  }
  // npm packages installed into HERMES_HOME (npm install --prefix ~/.hermes <pkg>) with "hermesPlugin"
  sources.push({ dir: join(options.home, 'node_modules'), source: 'npm' });
  return sources;
}

/** Module aliases plugin code may import without installing anything. */
export function pluginAliases(): Record<string, string> {
  return { '@hermes/plugin-sdk': fileURLToPath(import.meta.resolve('@hermes/plugin-sdk')) };
}
