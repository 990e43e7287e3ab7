/**
 * The consent items of the skill taps: one per tap (`tap:<name>`), bound to the sha256 of its
 * working files (every file of its checkout but `.git`), so an edit to any of them, a pull or a
 * file added makes the tap pending again and its skills are left out until approved.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { hashHookFolder } from '@hermes/plugins';
import type { TrustItem } from '../trust/trust-items.js';
import { tapItemId, tapsDir } from './tap-paths.js';

/** The names of the taps of a home (its folders under skill-taps/), sorted. */
export function tapNames(home: string): string[] {
  const dir = tapsDir(home);
  try {
    return readdirSync(dir)
      .filter((n) => !n.startsWith('.') && statSync(join(dir, n)).isDirectory())
      .sort();
  } catch {
    return []; // no taps folder: no taps
  }
}

/** The consent item of the tap at `dir` now. */
export function tapItem(name: string, dir: string): TrustItem {
  return {
    id: tapItemId(name),
    kind: 'tap',
    what: `skill tap ${name} (${dir})`,
    sha256: hashHookFolder(dir, ['.git']).sha256,
  };
}

/** One item per tap of HERMES_HOME/skill-taps. */
export function tapItems(home: string): TrustItem[] {
  return tapNames(home).map((n) => tapItem(n, join(tapsDir(home), n)));
}
