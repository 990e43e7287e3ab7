/** Files inside a skill's folder: listed for `skill_view`, and read only when they stay inside it. */
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';

/** At most this many files are listed beside a skill's SKILL.md. */
export const SKILL_FILES_MAX = 50;

const inside = (root: string, target: string) => {
  const rel = relative(root, target);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
};

/** The folder's files (relative, `/`-separated, sorted), SKILL.md and hidden entries left out. */
export async function listSkillFiles(dir: string): Promise<string[]> {
  let entries: string[];
  try {
    entries = await readdir(dir, { recursive: true });
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const entry of entries.sort()) {
    const name = entry.split(sep).join('/');
    if (name === 'SKILL.md' || name.split('/').some((part) => part.startsWith('.'))) continue;
    try {
      if (!(await stat(join(dir, entry))).isFile()) continue;
    } catch {
      continue;
    }
    files.push(name);
    if (files.length >= SKILL_FILES_MAX) break;
  }
  return files;
}

/**
 * Reads `file` (relative to the skill's folder) when it and its real path stay inside the folder;
 * otherwise an error message naming why. Text is capped at `maxChars`.
 */
export async function readSkillFile(
  dir: string,
  file: string,
  maxChars: number,
): Promise<{ content: string; truncated: boolean } | { error: string }> {
  if (file.includes('\0') || isAbsolute(file) || !inside(dir, resolve(dir, file))) {
    return { error: `file "${file}" is outside the skill's folder: give a path relative to it, without ..` };
  }
  let real: string;
  try {
    real = await realpath(resolve(dir, file));
    if (!inside(await realpath(dir), real)) {
      return { error: `file "${file}" leads outside the skill's folder (a link): refused` };
    }
    if (!(await stat(real)).isFile()) return { error: `file "${file}" is not a file` };
  } catch {
    return { error: `file "${file}" does not exist in the skill's folder` };
  }
  const text = await readFile(real, 'utf8');
  return { content: text.slice(0, maxChars), truncated: text.length > maxChars };
}
