/**
 * `hermes hooks install NAME`: copies an example gateway hook from the repository's hooks/ into
 * HERMES_HOME/hooks/ and approves exactly what it wrote (the user chose it by name).
 */
import { cpSync, existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { resolveHome } from '@hermes/config';
import { allowlistPath, ShellHookAllowlist } from '@hermes/plugins';
import { EXIT } from '@hermes/protocol';
import { EXAMPLE_HOOKS_DIR } from '../app-paths.js';
import { CliExit } from '../cli-error.js';

export { EXAMPLE_HOOKS_DIR };

import type { GlobalOptions } from '../main.js';

/** The repository's example hooks (apps/hermes/dist/commands -> repo root). */

/** The names of the example hooks. */
export function exampleHooks(dir = EXAMPLE_HOOKS_DIR): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => statSync(join(dir, name)).isDirectory() && existsSync(join(dir, name, 'HOOK.yaml')))
    .sort();
}

export async function hooksInstall(name: string, opts: { force?: boolean }, options: GlobalOptions): Promise<void> {
  const available = exampleHooks();
  if (!available.includes(name)) {
    throw new CliExit(EXIT.ERROR, `no example hook "${name}"; available: ${available.join(', ') || 'none'}`);
  }
  const { home } = resolveHome({ env: process.env, ...(options.profile ? { profile: options.profile } : {}) });
  const target = join(home, 'hooks', name);
  if (existsSync(target) && !opts.force) {
    throw new CliExit(EXIT.ERROR, `${target} already exists; use --force to overwrite it`);
  }
  // --force replaces the folder: a leftover file would be approved along with the example
  rmSync(target, { recursive: true, force: true });
  cpSync(join(EXAMPLE_HOOKS_DIR, name), target, { recursive: true });
  await approveInstalled(home, target);
  process.stdout.write(`installed ${name} into ${target} (approved); restart the gateway to load it\n`);
}

/** Records consent for the hook just written, bound to its content now. */
async function approveInstalled(home: string, dir: string): Promise<void> {
  const { discoverGatewayHooks, gatewayHookConsent, approveGatewayHook } = await import('@hermes/gateway');
  const spec = discoverGatewayHooks(join(home, 'hooks')).hooks.find((h) => h.dir === dir);
  if (spec === undefined) {
    throw new CliExit(EXIT.ERROR, `${dir} was written but is not a valid gateway hook; not approved`);
  }
  const { allowlist, problem } = ShellHookAllowlist.load(allowlistPath(home));
  if (problem !== null) throw new CliExit(EXIT.ERROR, `${problem}; ${spec.name} was installed but not approved`);
  approveGatewayHook(allowlist, spec, gatewayHookConsent(allowlist, spec).sha256, 'hermes hooks install');
  allowlist.save();
}
