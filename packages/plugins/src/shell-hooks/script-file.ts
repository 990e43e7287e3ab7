/**
 * The script file a shell-hook command runs, and its content hash: consent is bound to it, so an
 * edited script needs consent again.
 */
import { createHash } from 'node:crypto';
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

export interface HookScript {
  /** absolute path of the script file */
  path: string;
  /** sha256 of its content (hex), null when it cannot be read */
  sha256: string | null;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    // missing or unreadable: not a script we can bind consent to
    return false;
  }
}

/**
 * The script of a command: the first word when it is a path (contains "/") to a file; else, when
 * the first word is a bare program name (`python3 hook.py`, `bash -e ~/x.sh`), the first later
 * word that names an existing file. Null when there is none (`notify-send hi`): consent then
 * binds to the command string alone. Relative paths resolve against `cwd`.
 */
export function resolveHookScript(argv: readonly string[], cwd: string): string | null {
  const [program, ...args] = argv;
  if (program === undefined) return null;
  if (program.includes('/')) {
    const path = resolve(cwd, program);
    return isFile(path) ? path : null;
  }
  for (const arg of args) {
    if (arg.startsWith('-') || arg === '') continue;
    const path = resolve(cwd, arg);
    if (isFile(path)) return path;
  }
  return null;
}

/** sha256 (hex) of a file's content, or null when it cannot be read. */
export function hashFile(path: string): string | null {
  try {
    return createHash('sha256').update(readFileSync(path)).digest('hex');
  } catch {
    // deleted or unreadable since it was resolved: no hash, so consent cannot match
    return null;
  }
}

/** The script of `argv` with its hash, or null when the command runs no script file. */
export function hookScript(argv: readonly string[], cwd: string): HookScript | null {
  const path = resolveHookScript(argv, cwd);
  return path === null ? null : { path, sha256: hashFile(path) };
}

/** True when `path` is a file the current user may execute. */
export function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return isFile(path);
  } catch {
    // EACCES or ENOENT: not executable
    return false;
  }
}

/** Where a bare program name is found on PATH, or null. */
export function findOnPath(program: string, env: NodeJS.ProcessEnv = process.env): string | null {
  if (program.includes('/')) return isAbsolute(program) ? program : null;
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, program);
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}
