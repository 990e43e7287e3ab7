/**
 * The file cache of esbuild's transforms: one file per (path, load mode, source), named by a hash of
 * the three, in a folder beside jiti's own cache (node_modules/.cache/jiti beside the loader, else
 * the temp folder's jiti). A changed source is a new key, so an entry is never stale; a failed read
 * or write only costs a transform. JITI_FS_CACHE=false (jiti's switch) turns it off.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';

/** the folder's name; its number changes when the transforms' form does */
export const TRANSFORM_CACHE_FOLDER = 'hermes-esbuild-1';

export interface TransformKey {
  filename?: string;
  source: string;
  async?: boolean;
}

export interface TransformCache {
  get(key: TransformKey): string | null;
  set(key: TransformKey, code: string): void;
}

/** jiti's default cache folder for a loader at `file` */
function jitiCacheRoot(file: string): string {
  const modules = resolve(file, '../node_modules');
  return existsSync(modules) ? join(modules, '.cache', 'jiti') : join(tmpdir(), 'jiti');
}

function cacheOn(): boolean {
  const value = process.env.JITI_FS_CACHE ?? process.env.JITI_CACHE;
  return value === undefined || !/^(false|0)$/i.test(value.trim());
}

/** The cache for a loader whose module is `file`; a no-op when turned off. */
export function createTransformCache(file: string): TransformCache {
  if (!cacheOn()) return { get: () => null, set: () => {} };
  const dir = join(jitiCacheRoot(file), TRANSFORM_CACHE_FOLDER);
  let made = false;
  const path = (key: TransformKey): string | null => {
    if (!key.filename) return null;
    const hash = createHash('sha256')
      .update(`${key.filename}\0${key.async ? 'async' : 'sync'}\0`)
      .update(key.source)
      .digest('base64url')
      .slice(0, 32);
    return join(dir, `${basename(key.filename)}.${hash}.cjs`);
  };
  return {
    get(key) {
      const at = path(key);
      if (!at) return null;
      try {
        return readFileSync(at, 'utf8');
      } catch {
        return null;
      }
    },
    set(key, code) {
      const at = path(key);
      if (!at) return;
      try {
        if (!made) mkdirSync(dir, { recursive: true });
        made = true;
        // whole or not at all for a reader in another process
        const part = `${at}.${process.pid}.part`;
        writeFileSync(part, code);
        renameSync(part, at);
      } catch {
        // a read-only or full disk: the next start transforms again
      }
    },
  };
}
