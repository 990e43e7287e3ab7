import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

/** Registers cleanup and returns a function that makes a fresh temporary directory per call. */
export function useTempDirs(): () => string {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), 'hermes-store-'));
    dirs.push(dir);
    return dir;
  };
}

/** A settable fake clock: `clock.now()` returns `clock.t`. */
export function fakeClock(start = 1_700_000_000_000): { t: number; now: () => number } {
  const clock = { t: start, now: () => clock.t };
  return clock;
}
