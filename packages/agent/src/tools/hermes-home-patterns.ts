/**
 * On the `local` terminal backend nothing hides HERMES_HOME, so a command that names it (its
 * path, `~/...` of it, `$HERMES_HOME`), or runs inside it, or climbs out of a workspace inside it
 * with `..`, is a dangerous command: the model could plant config, `.env`, hooks, plugins or
 * skills that the gateway loads at its next start. Built at run time from the HERMES_HOME paths.
 */
import { realpathSync } from 'node:fs';
import type { DangerousPattern } from './dangerous-patterns.js';
import type { DangerousMatch } from './match-dangerous.js';
import { HERMES_HOME_OPEN_DIRS, segmentsUnder } from './protected-paths.js';

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** `p` and its real path (when it exists and differs). */
function withRealPath(p: string): string[] {
  try {
    const real = realpathSync(p);
    return real === p ? [p] : [p, real];
  } catch {
    return [p];
  }
}

/** The ways a command can write each HERMES_HOME: absolute, `~/`, `$HOME/`, `${HOME}/`, and `$HERMES_HOME`. */
function spellings(hermesHomes: readonly string[], homeDir: string): string[] {
  const out = new Set<string>();
  for (const home of hermesHomes.flatMap(withRealPath)) {
    out.add(escapeRegex(home));
    const rel = segmentsUnder(homeDir, home);
    if (rel !== null && rel.length > 0) {
      const tail = escapeRegex(rel.join('/'));
      for (const prefix of ['~', '\\$HOME', '\\$\\{HOME\\}']) out.add(`${prefix}\\/${tail}`);
    }
  }
  out.add('\\$\\{?HERMES_HOME\\b');
  return [...out];
}

/** The pattern `hermes_home` for these HERMES_HOME paths (a path name ends at `/`, a quote, space or separator). */
export function hermesHomePattern(hermesHomes: readonly string[], homeDir: string): DangerousPattern {
  const source = `(?:${spellings(hermesHomes, homeDir).join('|')})(?=$|[\\/\\s"';&|)}])`;
  return {
    key: 'hermes_home',
    regex: new RegExp(source),
    description: "names HERMES_HOME (the gateway's config, .env, hooks, plugins and skills)",
    examples: [],
  };
}

/** The HERMES_HOME `cwd` is inside (the first that contains it), or null. */
function homeOf(cwd: string, hermesHomes: readonly string[]): { home: string; segments: string[] } | null {
  for (const home of hermesHomes.flatMap(withRealPath)) {
    const segments = segmentsUnder(home, cwd);
    if (segments !== null) return { home, segments };
  }
  return null;
}

/**
 * Why a command run in `cwd` is dangerous because of where it runs: inside HERMES_HOME outside its
 * cache and workspaces (every relative path then lands on the gateway's files), or inside a
 * workspace with `..` in the command. Null otherwise.
 */
export function hermesHomeCwdMatch(
  command: string,
  cwd: string,
  hermesHomes: readonly string[],
): DangerousMatch | null {
  const inside = homeOf(cwd, hermesHomes);
  if (inside === null) return null;
  const first = inside.segments[0];
  if (first === undefined || !HERMES_HOME_OPEN_DIRS.includes(first)) {
    return { key: 'hermes_home_cwd', description: 'runs inside HERMES_HOME (relative paths reach its files)' };
  }
  if (/(?:^|[\s/"'=:])\.\.(?:$|[\s/"';&|)])/.test(command)) {
    return { key: 'hermes_home_cwd', description: 'climbs out of its workspace inside HERMES_HOME (..)' };
  }
  return null;
}
