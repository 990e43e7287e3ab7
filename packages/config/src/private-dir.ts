/**
 * HERMES_HOME and its directories are owner-only (0700): they hold state.db, logs and .env. Modes
 * are set with chmod after creating, so a permissive umask cannot widen them.
 */
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { dirname, relative, sep } from 'node:path';

/** Mode of every directory Hermes creates. */
export const PRIVATE_DIR_MODE = 0o700;

/** Creates `path` and any missing parents with mode 0700 (chmod, umask-independent); existing directories are left as they are. */
export function makePrivateDir(path: string): void {
  const first = mkdirSync(path, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (first === undefined) return;
  // every directory from the first one created down to `path` is ours: chmod each
  const parts = relative(first, path).split(sep).filter(Boolean);
  let dir = first;
  chmodSync(dir, PRIVATE_DIR_MODE);
  for (const part of parts) {
    dir = `${dir}${sep}${part}`;
    chmodSync(dir, PRIVATE_DIR_MODE);
  }
}

/**
 * A one-line warning when the existing home lets group or others in (null when private or absent).
 * Hermes does not change the mode of a directory it did not create: the owner may share it on purpose
 * (a group-readable volume); the files in it are 0600 either way.
 */
export function homeModeWarning(home: string): string | null {
  let mode: number;
  try {
    mode = statSync(home).mode & 0o777;
  } catch {
    return null;
  }
  if ((mode & 0o077) === 0) return null;
  return `${home} is accessible to group or others (mode ${mode.toString(8).padStart(4, '0')}); run \`chmod 700 ${home}\` to keep it private`;
}

/** The parent of `path` created private (for files written into the home). */
export function makePrivateParent(path: string): void {
  makePrivateDir(dirname(path));
}
