/**
 * `hermes --help` lists the active memory provider's commands (memory-provider-cli.ts). The help
 * must stay fast, so config.yaml is first read as text: only a home whose `memory:` block names a
 * provider other than `builtin` loads the config and the plugins.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';

/** Whether config.yaml's text may name a memory provider other than builtin (a guess that errs on yes). */
export function mayNameMemoryProvider(text: string): boolean {
  const flow = /^memory:[ \t]*\{([^}]*)\}/m.exec(text);
  const block = flow
    ? flow[1]
    : /^memory:[ \t]*(?:#.*)?\r?\n((?:(?:[ \t]+.*|[ \t]*(?:#.*)?)(?:\r?\n|$))*)/m.exec(text)?.[1];
  if (!block) return false;
  const value = /(?:^|[\s,{])provider:[ \t]*(["']?)([^"'\s,}#]*)\1/m.exec(block)?.[2];
  return value !== undefined && value !== '' && value !== 'builtin';
}

/** The config.yaml this process would read (HERMES_HOME, the profile of --profile or HERMES_PROFILE). */
function configFile(argv: readonly string[], env: NodeJS.ProcessEnv): string {
  const at = argv.indexOf('--profile');
  const profile = (at >= 0 ? argv[at + 1] : undefined) ?? env.HERMES_PROFILE;
  const raw = env.HERMES_HOME || '~/.hermes';
  const root = resolve(raw === '~' || raw.startsWith('~/') ? join(env.HOME || homedir(), raw.slice(1)) : raw);
  const home = profile && profile !== 'default' ? join(root, 'profiles', profile) : root;
  return join(home, 'config.yaml');
}

/** Adds the active memory provider's command for the help; any failure leaves the help as it is. */
export async function addMemoryCliForHelp(program: Command, argv: readonly string[]): Promise<void> {
  try {
    if (!mayNameMemoryProvider(readFileSync(configFile(argv, process.env), 'utf8'))) return;
    const { addPluginCliCommands } = await import('./plugin-cli.js');
    const at = argv.indexOf('--profile');
    const profile = at >= 0 ? argv[at + 1] : undefined;
    await addPluginCliCommands(program, profile ? { profile } : {}, true);
  } catch {
    // no config.yaml, an invalid one, a plugin that throws: the commands' own run reports it
  }
}
