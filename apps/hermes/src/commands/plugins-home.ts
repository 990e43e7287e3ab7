/** Which home the `hermes plugins` commands work in. */
import { configPaths, resolveHome } from '@hermes/config';
import type { GlobalOptions } from '../main.js';

export interface PluginsHome {
  home: string;
  /** HERMES_HOME/plugins */
  pluginsDir: string;
  /** HERMES_HOME/.env */
  envFile: string;
}

/** Resolves HERMES_HOME (and the profile) without reading config or .env. */
export function pluginsHome(options: GlobalOptions): PluginsHome {
  const { home } = resolveHome({ env: process.env, ...(options.profile ? { profile: options.profile } : {}) });
  const paths = configPaths(home);
  return { home, pluginsDir: paths.pluginsDir, envFile: paths.env };
}
