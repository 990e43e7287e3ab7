/**
 * Crash-safe file replacement, one implementation for config.yaml, the hooks allowlist and the
 * gateway's lock file: write a temporary sibling, fsync it, rename it over the target (the temporary
 * file is removed when anything fails). Node built-ins only.
 */
import { closeSync, fchmodSync, fsyncSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';

/** Mode for a file that did not exist: owner-only, since these files may hold keys. */
export const NEW_FILE_MODE = 0o600;

function existingMode(path: string): number | null {
  try {
    return statSync(path).mode & 0o777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * Replaces `path` with `text` atomically (its folder must exist). The file gets `options.mode` when
 * given, else keeps its current mode, else 0600.
 */
export function writeFileAtomicSync(path: string, text: string, options: { mode?: number } = {}): void {
  const mode = options.mode ?? existingMode(path) ?? NEW_FILE_MODE;
  const tmp = `${path}.tmp-${process.pid}-${Date.now().toString(36)}`;
  try {
    const fd = openSync(tmp, 'w', mode);
    try {
      fchmodSync(fd, mode);
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}
