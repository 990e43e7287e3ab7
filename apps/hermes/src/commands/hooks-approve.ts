/**
 * `hermes hooks approve NAME | --all`: records consent for a gateway hook of HERMES_HOME/hooks,
 * bound to the sha256 of its folder's files now; the gateway loads it at its next start. A later
 * edit of any file of the folder makes it pending again.
 */
import { allowlistPath, ShellHookAllowlist } from '@hermes/plugins';
import { EXIT } from '@hermes/protocol';
import { CliExit } from '../cli-error.js';
import type { GlobalOptions } from '../main.js';
import { loadSettings } from '../settings.js';

export async function hooksApprove(
  name: string | undefined,
  opts: { all?: boolean },
  options: GlobalOptions,
): Promise<void> {
  if ((name === undefined) === !opts.all) {
    throw new CliExit(EXIT.ERROR, 'name one gateway hook (hermes hooks approve NAME) or pass --all');
  }
  const settings = loadSettings(options);
  const hooksDir = settings.paths.hooksDir;
  const { discoverGatewayHooks, gatewayHookConsent, approveGatewayHook } = await import('@hermes/gateway');
  const { hooks } = discoverGatewayHooks(hooksDir);
  const chosen = opts.all ? hooks : hooks.filter((h) => h.name === name);
  if (!opts.all && chosen.length === 0) {
    const known = hooks.map((h) => h.name).join(', ') || 'none';
    throw new CliExit(EXIT.ERROR, `no gateway hook named "${name}" in ${hooksDir} (hooks: ${known})`);
  }
  const { allowlist, problem } = ShellHookAllowlist.load(allowlistPath(settings.home));
  if (problem !== null) throw new CliExit(EXIT.ERROR, problem);
  const lines: string[] = [];
  let changed = false;
  for (const spec of chosen) {
    const consent = gatewayHookConsent(allowlist, spec);
    if (consent.state === 'approved') {
      lines.push(`${spec.name}: already approved (sha256 ${consent.sha256.slice(0, 12)})`);
      continue;
    }
    approveGatewayHook(allowlist, spec, consent.sha256, 'hermes hooks approve');
    changed = true;
    const was = consent.state === 'new' ? 'new' : 'changed since approval';
    lines.push(
      `${spec.name}: approved (${was}; sha256 ${consent.sha256.slice(0, 12)} over ${consent.files.join(', ')} in ${spec.dir})`,
    );
  }
  if (changed) {
    allowlist.save();
    lines.push('restart the gateway to load newly approved hooks');
  }
  if (lines.length === 0) lines.push(`no gateway hooks in ${hooksDir}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}
