/** HERMES_HOME, .env and config.yaml: what every command starts from (light: no agent, no store). */
import { homedir } from 'node:os';
import { stderr } from 'node:process';
import { applyDotEnv, configPaths, type HermesConfig, loadConfig, loadDotEnv, resolveHome } from '@hermes/config';
import type { GlobalOptions } from './main.js';

export interface Settings {
  home: string;
  profile: string | null;
  paths: ReturnType<typeof configPaths>;
  config: HermesConfig;
  env: NodeJS.ProcessEnv;
  /** HERMES_HOME/.env as written in the file (every value is redacted as a secret) */
  dotenv: Readonly<Record<string, string>>;
}

export interface LoadSettingsOptions {
  /**
   * Leave unknown `hooks:` event names unprinted: the caller reads the shell hooks, whose reader
   * warns about each skipped entry itself (with "did you mean").
   */
  shellHooksReadLater?: boolean;
}

/** Resolves HERMES_HOME, applies .env (process env wins), loads config; prints config warnings. */
export function loadSettings(options: GlobalOptions, load: LoadSettingsOptions = {}): Settings {
  const { home, profile } = resolveHome({ env: process.env, ...(options.profile ? { profile: options.profile } : {}) });
  const dotenv = loadDotEnv(home, process.env);
  applyDotEnv(dotenv.values, process.env);
  const { config, warnings } = loadConfig({ home, env: process.env });
  for (const w of warnings) {
    if (load.shellHooksReadLater && w.kind === 'unknown_hook_event') continue;
    stderr.write(`hermes: warning: ${w.message}\n`);
  }
  return { home, profile, paths: configPaths(home), config, env: process.env, dotenv: dotenv.values };
}

/** The directory `~` means in shell-hook commands. */
export function userHome(env: NodeJS.ProcessEnv): string {
  return env.HOME || env.USERPROFILE || homedir();
}
