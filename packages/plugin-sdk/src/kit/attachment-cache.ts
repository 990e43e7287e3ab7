/**
 * The attachment cache: a file downloaded once lands as `<cacheDir>/<name>` all at once (written to
 * a `.part` file, then renamed), so a crash or a second download never leaves half a file there.
 */
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

/** True when `path` is already a cached file (absent or unreadable: download it). */
export async function isCached(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/**
 * Writes `dest` through `write(partialPath)` (which creates the partial file), then renames it into
 * place; on failure the partial file is removed and the error rethrown. Resolves with `dest`.
 */
export async function storeCached(dest: string, write: (partial: string) => Promise<void>): Promise<string> {
  await mkdir(dirname(dest), { recursive: true });
  const partial = `${dest}.${process.pid}.part`;
  try {
    await write(partial);
    await rename(partial, dest);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  return dest;
}
