/**
 * `hermes update [--check] [--backup]`: brings this installation to its newest version. A git
 * checkout (the repository) fast-forwards to its upstream, runs `npm ci` (which builds), the new
 * code's `hermes state migrate`, and restarts a running gateway with the new code; an npm install
 * asks the registry and installs its newest version globally (or says the command). `--check`
 * only reports; `--backup` runs `hermes backup` first.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT_TERMINAL_MARKER, EXIT } from '@hermes/protocol';
import { APP_ROOT, REPO_ROOT } from '../app-paths.js';
import { CliExit } from '../cli-error.js';
import type { GlobalOptions } from '../main.js';
import { loadSettings } from '../settings.js';
import {
  assertUpdatable,
  checkoutState,
  describeCheckout,
  isGitCheckout,
  updateCheckout,
} from '../update/git-checkout.js';
import { describeNpm, npmState, olderThan, updateNpm } from '../update/npm-install.js';
import { mustRun } from '../update/run-step.js';

export interface UpdateOptions {
  check?: boolean;
  backup?: boolean;
}

const say = (line: string) => process.stdout.write(`${line}\n`);

/** The installation to update: HERMES_UPDATE_ROOT, else the checkout or the package this hermes runs from. */
function installRoot(): string {
  const named = process.env.HERMES_UPDATE_ROOT;
  if (named) return named;
  return isGitCheckout(REPO_ROOT) ? REPO_ROOT : APP_ROOT;
}

async function backupFirst(options: GlobalOptions): Promise<void> {
  const { backupCommand } = await import('./backup.js');
  await backupCommand({}, options);
}

/** With the new code: migrate the state, and restart the gateway when one runs for this home. */
async function afterInstall(bin: string, options: GlobalOptions): Promise<void> {
  if (!existsSync(bin)) {
    say(`no ${bin}: state migration and gateway restart skipped`);
    return;
  }
  const profile = options.profile ? ['--profile', options.profile] : [];
  const migrated = mustRun(
    'migrating the state (hermes state migrate)',
    process.execPath,
    [bin, ...profile, 'state', 'migrate'],
    process.cwd(),
  );
  say(`state: ${migrated.trim().split('\n').at(-1) ?? 'migrated'}`);
  const { home } = loadSettings(options);
  const { gatewayStatus } = await import('./gateway-service.js');
  if (!(await gatewayStatus(home)).running) {
    say(`no gateway running for ${home}: the next hermes gateway start runs the new version`);
    return;
  }
  const restarted = mustRun(
    'restarting the gateway (hermes gateway restart)',
    process.execPath,
    [bin, ...profile, 'gateway', 'restart'],
    process.cwd(),
  );
  say(restarted.trim());
}

export async function updateCommand(opts: UpdateOptions, options: GlobalOptions): Promise<void> {
  // new code is installed and run only when the operator asks: never from the agent's terminal tool
  if (!opts.check && (process.env[AGENT_TERMINAL_MARKER] ?? '') !== '') {
    throw new CliExit(
      EXIT.USAGE,
      `update: run by the agent's terminal tool (${AGENT_TERMINAL_MARKER} is set): only the operator updates Hermes (--check is allowed)`,
    );
  }
  const root = installRoot();
  if (isGitCheckout(root)) {
    const state = checkoutState(root);
    say(describeCheckout(root, state));
    if (opts.check || state.behind === 0) return;
    assertUpdatable(root, state);
    if (opts.backup) await backupFirst(options);
    updateCheckout(root, state, say);
    await afterInstall(join(root, 'apps', 'hermes', 'bin', 'hermes.js'), options);
    return;
  }
  const state = npmState(root);
  say(describeNpm(state));
  if (opts.check || !olderThan(state.installed, state.latest)) return;
  if (opts.backup) await backupFirst(options);
  if (updateNpm(root, state, say)) await afterInstall(join(root, 'bin', 'hermes.js'), options);
}
