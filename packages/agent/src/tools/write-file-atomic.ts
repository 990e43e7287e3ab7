/**
 * Atomic file replacement: mkdir -p the parent, write and fsync a temp file next to the
 * target, rename it over the target; the temp file is removed when anything fails.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { errnoCode } from './errno.js';

export interface AtomicWriteOptions {
  /** fs.rename by default; injectable to test the failure path */
  rename?: (from: string, to: string) => Promise<void>;
}

/** The mode bits of an existing file, or undefined when there is none. */
async function existingMode(filePath: string): Promise<number | undefined> {
  try {
    return (await stat(filePath)).mode & 0o7777;
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

/** Writes `data` to `filePath` so readers see the old or the new file, never a partial one; keeps an existing file's mode. */
export async function writeFileAtomic(filePath: string, data: string, options: AtomicWriteOptions = {}): Promise<void> {
  const dir = path.dirname(filePath);
  await mkdir(dir, { recursive: true });
  const mode = await existingMode(filePath);
  const tempPath = path.join(dir, `.${path.basename(filePath)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await open(tempPath, 'wx', mode ?? 0o666);
    try {
      await handle.writeFile(data, 'utf8');
      if (mode !== undefined) await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await (options.rename ?? rename)(tempPath, filePath);
  } catch (error) {
    await rm(tempPath, { force: true });
    throw error;
  }
}
