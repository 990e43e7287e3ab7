/**
 * `hermes hooks revoke COMMAND|NAME`: removes every shell-hook approval of COMMAND, or the
 * approval of the gateway hook NAME, from the consent store.
 */
import { allowlistPath, ShellHookAllowlist } from '@hermes/plugins';
import { CliExit } from '../cli-error.js';
import type { GlobalOptions } from '../main.js';
import { loadSettings, userHome } from '../settings.js';

/** `~/x` as the shell would pass it: `/home/ann/x`. */
function expandLeadingTilde(command: string, home: string): string {
  return command.replace(/^~(?=\/|\s|$)/, home);
}

/**
 * Removes the approvals of COMMAND (as written in config.yaml; a form whose leading `~` the shell
 * expanded matches too) and of the gateway hook named COMMAND. Exits 1 when there is none. A
 * running gateway keeps the hook until it restarts.
 */
export async function hooksRevoke(command: string, options: GlobalOptions): Promise<void> {
  const settings = loadSettings(options);
  const home = userHome(settings.env);
  const { allowlist, problem } = ShellHookAllowlist.load(allowlistPath(settings.home));
  if (problem !== null) throw new CliExit(1, problem);
  const wanted = command.trim();
  const matches = allowlist
    .entries()
    .filter((e) => e.command === wanted || expandLeadingTilde(e.command, home) === wanted);
  const gateway = allowlist.removeGateway(wanted);
  if (matches.length === 0 && !gateway) {
    const known = [...new Set(allowlist.entries().map((e) => e.command))].map((c) => JSON.stringify(c));
    const names = allowlist.gatewayEntries().map((e) => e.name);
    const hint =
      known.length + names.length === 0
        ? 'the allowlist is empty'
        : [
            known.length > 0 ? `allowed commands: ${known.join(', ')}` : '',
            names.length > 0 ? `approved gateway hooks: ${names.join(', ')}` : '',
          ]
            .filter(Boolean)
            .join('; ');
    throw new CliExit(
      1,
      `no shell-hook approval for ${JSON.stringify(wanted)} and no approved gateway hook of that name (${hint})`,
    );
  }
  for (const stored of new Set(matches.map((e) => e.command))) allowlist.removeCommand(stored);
  allowlist.save();
  if (matches.length > 0) {
    const events = matches.map((e) => e.event).join(', ');
    process.stdout.write(
      `Revoked ${matches.length} approval${matches.length === 1 ? '' : 's'} of ${JSON.stringify(matches[0]?.command)} (${events}); ` +
        'the next run asks again (restart a running gateway for it to take effect)\n',
    );
  }
  if (gateway) {
    process.stdout.write(
      `Revoked the approval of gateway hook ${wanted}; it is pending (not loaded) from the next gateway start\n`,
    );
  }
}
