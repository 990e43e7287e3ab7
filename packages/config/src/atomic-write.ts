/** Crash-safe file replacement: write a temporary sibling, fsync, rename over the target. */
import { closeSync, fchmodSync, fsyncSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { hasErrorCode } from './fs-helpers.js';
import { makePrivateDir } from './private-dir.js';

/** Mode for files that did not exist: owner-only, since config files may hold keys. */
const NEW_FILE_MODE = 0o600;

function existingMode(path: string): number | null {
  try {
    return statSync(path).mode & 0o777;
  } catch (error) {
    if (hasErrorCode(error, 'ENOENT')) return null;
    throw error;
  }
}

/** Replaces `path` with `text` atomically, creating parent directories; keeps an existing file's mode. */
export function writeFileAtomic(path: string, text: string): void {
  makePrivateDir(dirname(path));
  const mode = existingMode(path) ?? NEW_FILE_MODE;
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
