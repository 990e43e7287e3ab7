/** `hermes plugins install SRC [--enable|--no-enable] [--force]`. */
import type { GlobalOptions } from '../main.js';
import { envNeeds } from './plugins-entry.js';
import { promptForEnv } from './plugins-env-prompt.js';
import { fetchAndPlace } from './plugins-fetch-validated.js';
import { pluginsHome } from './plugins-home.js';
import { createPrompter, type Prompter } from './plugins-prompt.js';
import { parseInstallSource } from './plugins-source.js';
import { applyToggle } from './plugins-toggle.js';

export interface InstallFlags {
  /** true: --enable, false: --no-enable, undefined: ask (no on a non-TTY) */
  enable?: boolean;
  force?: boolean;
  /** record consent for the enabled plugin without a terminal */
  yes?: boolean;
}

async function decideEnable(name: string, flag: boolean | undefined, prompter: Prompter): Promise<boolean> {
  if (flag !== undefined) return flag;
  if (!prompter.interactive) return false;
  const answer = await prompter.ask(`Enable '${name}' now? [y/N] `);
  return /^y(es)?$/i.test(answer?.trim() ?? '');
}

/** Installs a plugin, asks for its missing env vars, then enables it when told or agreed. */
export async function pluginsInstall(src: string, flags: InstallFlags, options: GlobalOptions): Promise<void> {
  const { home, pluginsDir } = pluginsHome(options);
  const source = parseInstallSource(src, process.cwd());
  const { manifest, dir } = await fetchAndPlace({ source, src, pluginsDir, replace: flags.force === true });
  process.stdout.write(`installed ${manifest.name} ${manifest.version} to ${dir}\n`);
  const prompter = createPrompter();
  try {
    await promptForEnv(home, envNeeds(manifest), prompter);
    if (await decideEnable(manifest.name, flags.enable, prompter)) {
      applyToggle(home, manifest.name, true, { dir, source: 'user' }, flags.yes === true);
    } else process.stdout.write(`not enabled; run: hermes plugins enable ${manifest.name}\n`);
  } finally {
    prompter.close();
  }
}
