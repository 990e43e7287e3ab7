/**
 * Walks a folder for `search_files`: files in name order, directory by directory, skipping what
 * the folder's ignore files (`.gitignore`, `.ignore`, at every level, as git reads them) exclude,
 * `.git` itself, and symbolic links (never followed: a link cannot lead out of the allowed
 * folders). Stops after `maxEntries` entries so a huge tree costs a bounded time.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';

const IGNORE_FILES = ['.gitignore', '.ignore'];
const ALWAYS_SKIPPED = new Set(['.git']);

interface Level {
  dir: string;
  rules: Ignore | null;
}

async function rulesOf(dir: string): Promise<Ignore | null> {
  let rules: Ignore | null = null;
  for (const name of IGNORE_FILES) {
    try {
      const text = await readFile(path.join(dir, name), 'utf8');
      rules ??= ignore();
      rules.add(text);
    } catch {
      // no such ignore file here
    }
  }
  return rules;
}

function ignored(levels: readonly Level[], full: string, isDir: boolean): boolean {
  for (const level of levels) {
    if (level.rules === null) continue;
    const rel = path.relative(level.dir, full).split(path.sep).join('/');
    if (rel !== '' && level.rules.ignores(isDir ? `${rel}/` : rel)) return true;
  }
  return false;
}

export interface WalkState {
  /** entries looked at so far */
  entries: number;
  /** true when the walk stopped at maxEntries */
  truncated: boolean;
}

/** Yields the absolute paths of the files under `root` that no ignore file excludes. */
export async function* walkFiles(root: string, maxEntries: number, state: WalkState): AsyncGenerator<string> {
  const visit = async function* (dir: string, levels: Level[]): AsyncGenerator<string> {
    const here = [...levels, { dir, rules: await rulesOf(dir) }];
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return; // unreadable folder: skipped
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (state.entries >= maxEntries) {
        state.truncated = true;
        return;
      }
      state.entries++;
      if (entry.isSymbolicLink() || ALWAYS_SKIPPED.has(entry.name)) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!ignored(here, full, true)) yield* visit(full, here);
      } else if (entry.isFile() && !ignored(here, full, false)) {
        yield full;
      }
    }
  };
  yield* visit(root, []);
}
