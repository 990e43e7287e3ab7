/** Where things live under a Hermes home. */
import { join } from 'node:path';

export interface ConfigPaths {
  /** config.yaml */
  config: string;
  /** .env */
  env: string;
  /** state.db (SQLite) */
  stateDb: string;
  /** the logs directory (gateway.log lives in it) */
  logs: string;
  /** user plugins: plugins/<name>/ */
  pluginsDir: string;
  /** gateway hooks: hooks/<name>/ */
  hooksDir: string;
}

/** The standard file layout of one home (the default home or a profile's). */
export function configPaths(home: string): ConfigPaths {
  return Object.freeze({
    config: join(home, 'config.yaml'),
    env: join(home, '.env'),
    stateDb: join(home, 'state.db'),
    logs: join(home, 'logs'),
    pluginsDir: join(home, 'plugins'),
    hooksDir: join(home, 'hooks'),
  });
}
