import os from 'node:os';
import path from 'node:path';

/** Absolute path for a model-supplied path: `~` and `~/...` expand to `homeDir`, relative paths resolve against `cwd`. */
export function resolveToolPath(input: string, cwd: string, homeDir: string = os.homedir()): string {
  if (input === '~') return homeDir;
  if (input.startsWith('~/')) return path.join(homeDir, input.slice(2));
  return path.resolve(cwd, input);
}
