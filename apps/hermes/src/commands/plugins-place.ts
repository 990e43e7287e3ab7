/** Copies validated plugin files to HERMES_HOME/plugins/<name>/, replacing an old copy only when asked. */
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';

export const INSTALL_RECORD = '.hermes-install.json';

export interface InstallRecord {
  /** what to fetch again on update: the SRC given (local folders absolute) */
  source: string;
  installedAt: string;
  /** the git commit installed, when the source was a git repository */
  commit?: string;
}

/**
 * Copies `from` (without .git) to `<pluginsDir>/<name>` with an install record, staged next to
 * it and swapped in by rename. Throws when the target exists and `replace` is false.
 */
export async function placePlugin(options: {
  from: string;
  pluginsDir: string;
  name: string;
  record: InstallRecord;
  replace: boolean;
}): Promise<string> {
  const target = join(options.pluginsDir, options.name);
  if (existsSync(target) && !options.replace) {
    throw new Error(
      `plugin '${options.name}' is already installed at ${target}; use --force to replace it (or hermes plugins update ${options.name})`,
    );
  }
  await mkdir(options.pluginsDir, { recursive: true });
  // staged under the plugins folder's parent (same filesystem, invisible to discovery)
  const staging = await mkdtemp(join(options.pluginsDir, '..', '.plugin-install-'));
  try {
    const fresh = join(staging, 'new');
    await cp(options.from, fresh, { recursive: true, filter: (path) => basename(path) !== '.git' });
    await writeFile(join(fresh, INSTALL_RECORD), `${JSON.stringify(options.record, null, 2)}\n`);
    const old = join(staging, 'old');
    const hadOld = existsSync(target);
    if (hadOld) await rename(target, old);
    try {
      await rename(fresh, target);
    } catch (err) {
      if (hadOld) await rename(old, target);
      throw err;
    }
    return target;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
