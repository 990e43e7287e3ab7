/**
 * state.db holds every transcript: it and its -wal and -shm companions are owner-only (0600), its
 * directory 0700 when the store creates it. SQLite creates the companions with the database's own
 * mode, so a database made 0600 before the first open keeps them 0600; chmod after creating makes
 * the modes exact whatever the umask.
 */
import { chmodSync, closeSync, fchmodSync, mkdirSync, openSync } from 'node:fs';
import { dirname, relative, sep } from 'node:path';

export const STATE_FILE_MODE = 0o600;
const STATE_DIR_MODE = 0o700;

function isMissing(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'ENOENT';
}

/** Creates the database's directory (0700 for every directory created) and the file itself (0600) when missing. */
export function prepareStateFile(path: string): void {
  const dir = dirname(path);
  const first = mkdirSync(dir, { recursive: true, mode: STATE_DIR_MODE });
  if (first !== undefined) {
    let at = first;
    chmodSync(at, STATE_DIR_MODE);
    for (const part of relative(first, dir).split(sep).filter(Boolean)) {
      at = `${at}${sep}${part}`;
      chmodSync(at, STATE_DIR_MODE);
    }
  }
  // 'a' creates an empty file (SQLite treats it as a new database) and never truncates one
  const fd = openSync(path, 'a', STATE_FILE_MODE);
  try {
    fchmodSync(fd, STATE_FILE_MODE);
  } finally {
    closeSync(fd);
  }
}

/** Sets state.db, -wal and -shm to 0600 where they exist (an older database created 0644 is tightened). */
export function tightenStateFiles(path: string): void {
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    try {
      chmodSync(file, STATE_FILE_MODE);
    } catch (error) {
      // absent companions are normal; a file we do not own (EPERM) is left as it is
      if (!isMissing(error) && !(error instanceof Error && 'code' in error && error.code === 'EPERM')) throw error;
    }
  }
}
