/**
 * Reads the user's skills: HERMES_HOME/skills/<name>/SKILL.md. A bad skill (no SKILL.md, no or
 * broken front matter, a bad name, unreadable) is reported with its file and line and skipped.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseSkillFile } from './skill-file.js';

/** A SKILL.md larger than this is refused (the body goes whole into a user message). */
export const SKILL_FILE_MAX_BYTES = 256 * 1024;

export interface SkillEntry {
  /** how the skill is addressed: `standup` (user) or `calculator:calculator` (plugin) */
  name: string;
  description: string;
  source: 'user' | 'plugin' | 'tap';
  /** the plugin that registered it (plugin skills) */
  plugin?: string;
  /** the tap it came from (tap skills: `hermes skills tap add`) */
  tap?: string;
  /** the skill's folder: `skill_view`'s `file` reads inside it (null: inline content only) */
  dir: string | null;
  /** SKILL.md (null: inline content) */
  path: string | null;
  /** the instructions when known at load (user skills, inline plugin skills); else read from `path` */
  body: string | null;
}

export interface BrokenSkill {
  /** the folder's name */
  name: string;
  path: string;
  error: string;
  /** the tap it is in (a tap's skill) */
  tap?: string;
}

export interface LoadedSkills {
  skills: SkillEntry[];
  broken: BrokenSkill[];
  /** unknown front matter keys, `file:line: …` */
  warnings: string[];
}

const reason = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Loads every skill folder of `dir` (absent folder: none), sorted by name. */
export function loadSkillsDir(dir: string): LoadedSkills {
  const out: LoadedSkills = { skills: [], broken: [], warnings: [] };
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return out;
    out.broken.push({ name: '', path: dir, error: `${dir}: cannot read the skills folder: ${reason(err)}` });
    return out;
  }
  for (const entry of entries) {
    if (entry.startsWith('.')) continue;
    const folder = join(dir, entry);
    try {
      if (!statSync(folder).isDirectory()) continue; // a README or notes beside the folders
    } catch {
      continue; // a dangling link
    }
    const read = readSkillFolder(folder, entry);
    if ('error' in read) out.broken.push({ name: entry, path: join(folder, 'SKILL.md'), error: read.error });
    else {
      out.warnings.push(...read.warnings);
      out.skills.push(read.skill);
    }
  }
  return out;
}

/** One skill folder's SKILL.md, read and parsed as a user skill named `name` (its folder's name). */
export function readSkillFolder(
  folder: string,
  name: string,
): { skill: SkillEntry; warnings: string[] } | { error: string; missing: boolean } {
  const file = join(folder, 'SKILL.md');
  let text: string;
  try {
    const size = statSync(file).size;
    if (size > SKILL_FILE_MAX_BYTES) {
      return { error: `${file}: too large (${size} bytes, at most ${SKILL_FILE_MAX_BYTES})`, missing: false };
    }
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
    const error = missing
      ? `${file}: missing (each skill folder needs a SKILL.md)`
      : `${file}: unreadable: ${reason(err)}`;
    return { error, missing };
  }
  const parsed = parseSkillFile(text, file, name);
  if (!parsed.ok) return { error: parsed.error, missing: false };
  const { skill } = parsed;
  return {
    skill: {
      name: skill.name,
      description: skill.description,
      source: 'user',
      dir: folder,
      path: file,
      body: skill.body,
    },
    warnings: skill.warnings,
  };
}
