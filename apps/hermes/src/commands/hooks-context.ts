/** What every `hermes hooks` subcommand reads: the shell hooks of config.yaml with their consent state. */
import { stderr } from 'node:process';
import {
  type AllowlistEntry,
  allowlistPath,
  type ConsentState,
  type ConsentVia,
  consentState,
  type HookScript,
  hookScript,
  readShellHooks,
  ShellHookAllowlist,
  type ShellHookSpec,
} from '@hermes/plugins';
import type { GlobalOptions } from '../main.js';
import { loadSettings, type Settings, userHome } from '../settings.js';
import { trustedAutoAcceptVia } from '../trust/trust-gate.js';

export interface ShellHookInfo {
  spec: ShellHookSpec;
  script: HookScript | null;
  consent: ConsentState;
  /** the approval on file, if any */
  approval: AllowlistEntry | undefined;
}

export interface HooksContext {
  settings: Settings;
  /** the agent's working directory: shell hooks run there */
  cwd: string;
  shell: ShellHookInfo[];
  /** problems with config entries and the allowlist file, one line each */
  configWarnings: string[];
  allowlist: ShellHookAllowlist;
  /** the escape hatch in force: hooks not allowed yet would be accepted on the next agent run */
  autoAccept: ConsentVia | null;
}

/** Loads config and the allowlist; prints config and allowlist warnings on stderr unless `quiet` (the caller reports them). */
export function loadHooksContext(options: GlobalOptions, quiet = false): HooksContext {
  const settings = loadSettings(options, { shellHooksReadLater: true });
  const { config, paths, env } = settings;
  const cwd = config.terminal.cwd ?? process.cwd();
  const { hooks, warnings } = readShellHooks(config.hooks, { configPath: paths.config, userHome: userHome(env) });
  const { allowlist, problem } = ShellHookAllowlist.load(allowlistPath(settings.home));
  const problems = [...warnings, ...(problem === null ? [] : [problem])];
  if (!quiet) for (const w of problems) stderr.write(`hermes: warning: ${w}\n`);
  const shell = hooks.map((spec) => {
    const script = hookScript(spec.argv, cwd);
    return {
      spec,
      script,
      consent: consentState(allowlist, spec, script),
      approval: allowlist.find(spec.event, spec.command),
    };
  });
  const autoAccept = trustedAutoAcceptVia(settings, options.acceptHooks ?? false);
  return { settings, cwd, shell, configWarnings: problems, allowlist, autoAccept };
}

/** How a consent state reads in tables: allowed / not allowed / script changed. */
export function consentLabel(state: ConsentState): string {
  return state.replace('_', ' ');
}
