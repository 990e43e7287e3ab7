/** `hermes hooks install NAME`: copies an example gateway hook from the repository's hooks/ into HERMES_HOME/hooks/. */
import { cpSync, existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveHome } from '@hermes/config';
import { EXIT } from '@hermes/protocol';
import { CliExit } from '../cli-error.js';
import type { GlobalOptions } from '../main.js';

/** The repository's example hooks (apps/hermes/dist/commands -> repo root). */
export const EXAMPLE_HOOKS_DIR = fileURLToPath(new URL('../../../../hooks/', import.meta.url));

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
  cpSync(join(EXAMPLE_HOOKS_DIR, name), target, { recursive: true, force: true });
  process.stdout.write(`installed ${name} into ${target}; restart the gateway to load it\n`);
}
