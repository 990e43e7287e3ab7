/**
 * The cron pre-run scripts of HERMES_HOME/scripts as consent items (`script:<file name>`, the sha256
 * of the file's bytes, as the gateway hashes them before each run: @hermes/gateway's
 * surfaces/cron/script-path.ts). Only regular files directly in the folder; dot files, subfolders
 * and symlinks are never run, so they are not listed.
 */
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TrustItem } from './trust-items.js';
import { TrustStore } from './trust-store.js';

/** The consent item id of a script (the gateway's `scriptTrustId`). */
export const scriptItemId = (name: string): string => `script:${name}`;

/** One item per script file of HERMES_HOME/scripts. */
export function scriptItems(home: string): TrustItem[] {
  const dir = join(home, 'scripts');
  let names: string[];
  try {
    if (lstatSync(dir).isSymbolicLink()) return []; // never run from a symlinked folder
    names = readdirSync(dir).sort();
  } catch {
    // no scripts folder: nothing to consent to
    return [];
  }
  const items: TrustItem[] = [];
  for (const name of names) {
    if (name.startsWith('.')) continue;
    const path = join(dir, name);
    try {
      if (!lstatSync(path).isFile()) continue;
      const sha256 = createHash('sha256').update(readFileSync(path)).digest('hex');
      const what = `cron pre-run script ${name} (${path}; runs before each run of the jobs that name it)`;
      items.push({ id: scriptItemId(name), kind: 'script', what, sha256 });
    } catch {
      // removed or unreadable since the listing: nothing to approve
    }
  }
  return items;
}

/** The approved sha256 of each script, read from trust.json at each call (an approval applies at the next run). */
export function scriptConsent(home: string): (name: string) => string | undefined {
  return (name) => TrustStore.load(home).store.find(scriptItemId(name))?.sha256;
}
