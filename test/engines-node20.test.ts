import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The project runs on Node 20 (root package.json `engines`), so no locked package may
 * declare an `engines.node` range that excludes every Node 20 release: `npm ci` would warn
 * EBADENGINE and the package may use APIs Node 20 lacks. package-lock v3 records each
 * package's `engines`, so the lockfile alone is the source of truth.
 */
interface Semver {
  intersects(a: string, b: string): boolean;
}
interface LockEntry {
  version?: string;
  engines?: Record<string, string> | string[];
}

const root = join(import.meta.dirname, '..');
const semver = createRequire(import.meta.url)('semver') as Semver;

function node20Excluders(): string[] {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  const bad: string[] = [];
  for (const [path, entry] of Object.entries(lock.packages)) {
    const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
    if (range === undefined || path === '') continue;
    if (!semver.intersects(range, '20.x')) bad.push(`${path}@${entry.version ?? '?'} needs node ${range}`);
  }
  return bad;
}

describe('locked packages run on Node 20', () => {
  it('the check itself recognises a range that excludes Node 20', () => {
    expect(semver.intersects('>=22', '20.x')).toBe(false);
    expect(semver.intersects('^20.19.0 || >=22.12.0', '20.x')).toBe(true);
  });

  it('no package in package-lock.json has an engines.node that excludes Node 20', () => {
    expect(node20Excluders()).toEqual([]);
  });
});
