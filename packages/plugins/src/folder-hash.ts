/**
 * The content hash folder consent is bound to (a gateway hook's folder, a plugin's, a skill's):
 * every file of the folder (HOOK.yaml or plugin.yaml, the code and any sibling it imports, at any
 * depth), in sorted path order. Editing, adding, removing or renaming any of them changes the hash.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface HookFolderHash {
  /** sha256 (hex) over the sorted (path, content hash) pairs */
  sha256: string;
  /** the files hashed, relative to the folder, `/`-separated, sorted */
  files: string[];
}

/** Files under `dir` (symlinks followed, each real directory once), relative and sorted. */
function listFiles(dir: string, prefix: string, seen: Set<string>, out: string[], skip: ReadonlySet<string>): void {
  let real: string;
  try {
    real = realpathSync(dir);
  } catch {
    // a dangling link to a directory: nothing to read
    return;
  }
  if (seen.has(real)) return;
  seen.add(real);
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    const rel = prefix === '' ? name : `${prefix}/${name}`;
    if (skip.has(rel)) continue;
    let isDir = false;
    try {
      isDir = statSync(path).isDirectory();
    } catch {
      // a dangling symlink still counts as an entry: it is hashed as unreadable below
    }
    if (isDir) listFiles(path, rel, seen, out, skip);
    else out.push(rel);
  }
}

/** sha256 of one file's content; an unreadable file hashes as a fixed marker (so it cannot match real content). */
function fileDigest(path: string): string {
  try {
    return createHash('sha256').update(readFileSync(path)).digest('hex');
  } catch (err) {
    return `unreadable:${(err as NodeJS.ErrnoException).code ?? 'error'}`;
  }
}

/**
 * Hashes every file of a folder (a hook's, a plugin's, a skill's); `skip` leaves out entries by
 * their relative path (a skill tap's `.git`: its working files are what is consented to).
 */
export function hashHookFolder(dir: string, skip: readonly string[] = []): HookFolderHash {
  const files: string[] = [];
  listFiles(dir, '', new Set(), files, new Set(skip));
  files.sort();
  const hash = createHash('sha256');
  for (const rel of files) hash.update(`${rel}\0${fileDigest(join(dir, rel))}\n`);
  return { sha256: hash.digest('hex'), files };
}
