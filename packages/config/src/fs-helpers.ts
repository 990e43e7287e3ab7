/** Small filesystem helpers: Node error narrowing and reading optional files. */
import { readFileSync } from 'node:fs';

/** True when `error` is a Node system error with the given code (e.g. "ENOENT"). */
export function hasErrorCode(error: unknown, code: string): boolean {
  return error instanceof Error && 'code' in error && error.code === code;
}

/** The file's UTF-8 text, or null when it does not exist; other errors (EACCES, EISDIR) are thrown. */
export function readTextIfExists(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if (hasErrorCode(error, 'ENOENT')) return null;
    throw error;
  }
}
