/** `hermes hooks revoke COMMAND`: removes every shell-hook approval of COMMAND from the allowlist. */
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
 * expanded matches too). Exits 1 when there is none. A running gateway keeps the hook until it restarts.
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
  if (matches.length === 0) {
    const known = [...new Set(allowlist.entries().map((e) => e.command))];
    const hint =
      known.length === 0
        ? 'the allowlist is empty'
        : `allowed commands: ${known.map((c) => JSON.stringify(c)).join(', ')}`;
    throw new CliExit(1, `no shell-hook approval for ${JSON.stringify(wanted)} (${hint})`);
  }
  for (const stored of new Set(matches.map((e) => e.command))) allowlist.removeCommand(stored);
  allowlist.save();
  const events = matches.map((e) => e.event).join(', ');
  process.stdout.write(
    `Revoked ${matches.length} approval${matches.length === 1 ? '' : 's'} of ${JSON.stringify(matches[0]?.command)} (${events}); ` +
      'the next run asks again (restart a running gateway for it to take effect)\n',
  );
}
