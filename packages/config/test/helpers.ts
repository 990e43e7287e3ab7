import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

const made: string[] = [];

afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temporary directory, removed after the test. */
export function tempHome(): string {
  const dir = mkdtempSync(join(tmpdir(), 'hermes-config-'));
  made.push(dir);
  return dir;
}

/** A temporary home whose config.yaml holds `yaml`. */
export function homeWithConfig(yaml: string): { home: string; file: string } {
  const home = tempHome();
  const file = join(home, 'config.yaml');
  writeFileSync(file, yaml);
  return { home, file };
}

/** Runs `fn` and returns what it threw (fails the test if nothing was thrown). */
export function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw');
}
