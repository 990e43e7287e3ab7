/**
 * The skills of taps: repositories of skills cloned by `hermes skills tap add` into
 * `<taps>/<tap>/`. A tap's skills are the folders holding a SKILL.md under its `skills/` folder
 * when it has one, else under its root, one category level deep allowed
 * (`skills/writing/standup/SKILL.md`). Each is named `<tap>:<folder>`, like a plugin's skill;
 * folders without a SKILL.md (docs, `.github`) are not skills and are passed over silently.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type BrokenSkill, type LoadedSkills, readSkillFolder, type SkillEntry } from './skill-loader.js';

const isDir = (path: string): boolean => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

/** The visible sub-folders of `dir`, sorted (none when unreadable). */
function folders(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((n) => !n.startsWith('.') && isDir(join(dir, n)))
      .sort();
  } catch {
    return [];
  }
}

/** The folder a tap's skills live in: its `skills/` when it has one, else its root. */
export function tapSkillsRoot(tapDir: string): string {
  const nested = join(tapDir, 'skills');
  return isDir(nested) ? nested : tapDir;
}

/** The folders of a tap that hold a SKILL.md (root level, then one category level). */
function skillFolders(root: string): { name: string; folder: string }[] {
  const out: { name: string; folder: string }[] = [];
  for (const name of folders(root)) {
    const folder = join(root, name);
    const has = (dir: string) => {
      try {
        return statSync(join(dir, 'SKILL.md')).isFile();
      } catch {
        return false;
      }
    };
    if (has(folder)) out.push({ name, folder });
    else
      for (const inner of folders(folder))
        if (has(join(folder, inner))) out.push({ name: inner, folder: join(folder, inner) });
  }
  return out;
}

/** The skills of one tap, named `<tap>:<name>`. */
export function loadTapSkills(tap: string, tapDir: string): LoadedSkills {
  const out: LoadedSkills = { skills: [], broken: [], warnings: [] };
  const seen = new Set<string>();
  for (const { name, folder } of skillFolders(tapSkillsRoot(tapDir))) {
    const full = `${tap}:${name}`;
    const broken = (error: string) => out.broken.push({ name: full, path: join(folder, 'SKILL.md'), error, tap });
    if (seen.has(name)) {
      broken(`${join(folder, 'SKILL.md')}: a second skill named "${name}" in tap ${tap} (skipped)`);
      continue;
    }
    seen.add(name);
    const read = readSkillFolder(folder, name);
    if ('error' in read) {
      broken(read.error);
      continue;
    }
    out.warnings.push(...read.warnings);
    out.skills.push({ ...read.skill, name: full, source: 'tap', tap });
  }
  return out;
}

/** Every tap of `tapsDir` (each a folder), its skills together; `include(tap)` false leaves a tap out. */
export function loadTapsDir(tapsDir: string, include: (tap: string) => boolean = () => true): LoadedSkills {
  const skills: SkillEntry[] = [];
  const broken: BrokenSkill[] = [];
  const warnings: string[] = [];
  for (const tap of folders(tapsDir)) {
    if (!include(tap)) continue;
    const loaded = loadTapSkills(tap, join(tapsDir, tap));
    skills.push(...loaded.skills);
    broken.push(...loaded.broken);
    warnings.push(...loaded.warnings);
  }
  return { skills, broken, warnings };
}
