/**
 * A plugin's optional npm packages (`optional_dependencies`): `hermes plugins install-deps KEY`,
 * and the same offer after `hermes plugins enable`. Installing runs `npm install --prefix
 * HERMES_HOME` and happens only when all three hold: `security.allow_lazy_installs: true`, a
 * human runs the command (stdin a terminal or --yes, never under the agent's terminal marker:
 * trust/consent-allowed.ts), and, at a terminal without --yes, they answer yes. The gateway and
 * agent runs never install: a plugin whose package is missing is `deps_missing` (plugin-loader.ts).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { HermesConfig } from '@hermes/config';
import { missingDependencies, type OptionalDependency, type PluginManifest } from '@hermes/plugins';
import { ERROR_CODES, HermesError } from '@hermes/protocol';
import { CliExit } from '../cli-error.js';
import type { GlobalOptions } from '../main.js';
import { loadSettings } from '../settings.js';
import { consentAllowed } from '../trust/consent-allowed.js';
import { discoverPlugins } from './plugins-discover.js';
import { requireKnownPlugin } from './plugins-known.js';
import { createPrompter } from './plugins-prompt.js';

const out = (line: string) => process.stdout.write(`${line}\n`);

/** Where optional packages go and are imported from: HERMES_HOME/node_modules. */
export const modulesDir = (home: string): string => join(home, 'node_modules');

const shellWord = (word: string) => (/^[A-Za-z0-9@/._:=+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);
const specs = (deps: readonly OptionalDependency[]) => deps.map((d) => d.spec);

/** The command an operator can run by hand. */
export const manualInstall = (home: string, deps: readonly OptionalDependency[]): string =>
  ['npm', 'install', '--prefix', home, ...specs(deps)].map(shellWord).join(' ');

/** Why nothing is installed while lazy installs are off: the packages, the manual command and the switch. */
export function lazyInstallsOff(home: string, key: string, missing: readonly OptionalDependency[]): string {
  return `${key} needs ${specs(missing).join(', ')}, not installed in ${modulesDir(home)}; lazy installs are off (security.allow_lazy_installs): install it yourself with \`${manualInstall(home, missing)}\`, or set security.allow_lazy_installs: true and run \`hermes plugins install-deps ${key}\``;
}

function runNpm(home: string, missing: readonly OptionalDependency[]): Promise<number> {
  return new Promise((resolve, reject) => {
    // npm's own output goes to stderr: stdout says what Hermes did
    const child = spawn('npm', ['install', '--prefix', home, '--no-audit', '--no-fund', ...specs(missing)], {
      stdio: ['ignore', process.stderr, process.stderr],
      env: process.env,
    });
    child.on('error', (err) =>
      reject((err as NodeJS.ErrnoException).code === 'ENOENT' ? new CliExit(1, "'npm' is not installed") : err),
    );
    child.on('close', (code) => resolve(code ?? 1));
  });
}

/** Installs `missing` for plugin `key` (refusing as the module comment says); throws when nothing was installed. */
export async function installMissing(
  settings: { home: string; config: HermesConfig },
  key: string,
  missing: readonly OptionalDependency[],
  yes: boolean,
): Promise<void> {
  const { home, config } = settings;
  if (!config.security.allow_lazy_installs) throw new CliExit(1, lazyInstallsOff(home, key, missing));
  const allowed = consentAllowed(process.env, yes);
  if (!allowed.ok)
    throw new HermesError(ERROR_CODES.USAGE, `${specs(missing).join(', ')} not installed: ${allowed.why}`);
  if (!yes) {
    const prompter = createPrompter();
    try {
      const answer = await prompter.ask(
        `Install ${specs(missing).join(', ')} for plugin ${key} into ${modulesDir(home)} (npm install --prefix ${home})? [y/N] `,
      );
      if (!/^y(es)?$/i.test((answer ?? '').trim())) throw new CliExit(1, 'not installed');
    } finally {
      prompter.close();
    }
  }
  const code = await runNpm(home, missing);
  if (code !== 0) throw new CliExit(1, `npm install failed (exit ${code}); nothing changed for ${key}`);
  const still = missingDependencies(missing, modulesDir(home));
  if (still.length > 0) throw new CliExit(1, `still missing after npm install: ${specs(still).join(', ')}`);
  out(`installed ${specs(missing).join(', ')} into ${modulesDir(home)}; ${key} loads at the next start`);
}

/** `hermes plugins install-deps KEY [--yes]`. */
export async function pluginsInstallDeps(key: string, options: GlobalOptions, yes: boolean): Promise<void> {
  const settings = loadSettings(options);
  const { records } = await discoverPlugins(options, false);
  const deps = requireKnownPlugin(key, records).manifest?.optionalDependencies ?? [];
  if (deps.length === 0) {
    out(`${key} declares no optional_dependencies: nothing to install`);
    return;
  }
  const missing = missingDependencies(deps, modulesDir(settings.home));
  if (missing.length === 0) {
    out(`${key}: ${specs(deps).join(', ')} installed in ${modulesDir(settings.home)}`);
    return;
  }
  await installMissing(settings, key, missing, yes);
}

/** After `plugins enable KEY`: the missing packages installed (lazy installs on, a human), else a note on what to run. */
export async function offerDeps(
  home: string,
  key: string,
  manifest: PluginManifest | null,
  options: GlobalOptions,
  yes: boolean,
): Promise<void> {
  const missing = missingDependencies(manifest?.optionalDependencies ?? [], modulesDir(home));
  if (missing.length === 0) return;
  const settings = loadSettings(options);
  if (!settings.config.security.allow_lazy_installs) {
    out(`note: ${key} will not load (deps_missing): ${lazyInstallsOff(home, key, missing)}`);
    return;
  }
  const allowed = consentAllowed(process.env, yes);
  if (!allowed.ok) {
    out(
      `note: ${key} will not load until ${specs(missing).join(', ')} is installed (${allowed.why}): run \`hermes plugins install-deps ${key}\``,
    );
    return;
  }
  await installMissing(settings, key, missing, yes);
}
