/**
 * A job's pre-run script: a regular file directly in HERMES_HOME/scripts, named by its file name.
 * What `--script` and the `cronjob` tool's `script` take is resolved here: a bare name, or a path
 * (absolute, `~/…`) that lands directly in that folder; `..`, subfolders, dot files and symlinks
 * are refused. At a run the file is read once, without following a symlink, and its bytes are
 * what is hashed against the operator's consent and what runs.
 */
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path';

/** The folder of pre-run scripts in a Hermes home. */
export const scriptsDir = (home: string): string => join(home, 'scripts');

/** The consent item of a script (`hermes trust approve script:<name>`). */
export const scriptTrustId = (name: string): string => `script:${name}`;

/** A script larger than this is not run. */
export const SCRIPT_MAX_BYTES = 1024 * 1024;

/** The script `given` names in `dir` (`name`: what a job stores), or why it names none. */
export function scriptName(dir: string, given: string): { name: string } | { error: string } {
  const text = given.trim();
  const refuse = (why: string) => ({ error: `script "${text}": ${why}` });
  if (text === '') return refuse('empty: name a file of HERMES_HOME/scripts');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a control character in a name is refused
  if (/[\u0000-\u001f]/.test(text)) return refuse('has a control character');
  if (text.split(/[\\/]/).includes('..')) return refuse('".." is not allowed: name a file of HERMES_HOME/scripts');
  const expanded = text === '~' || text.startsWith('~/') ? join(homedir(), text.slice(1)) : text;
  const path = isAbsolute(expanded) ? resolve(expanded) : resolve(dir, expanded);
  if (dirname(path) !== resolve(dir)) {
    return refuse(`must be a file directly in ${dir} (no subfolders, nothing outside it)`);
  }
  const name = basename(path);
  if (name.startsWith('.')) return refuse('a dot file is not a script');
  const problem = fileProblem(dir, name);
  return problem === null ? { name } : refuse(problem);
}

/** Why `dir/name` cannot run (missing, a symlink, not a regular file, too large), or null. */
export function fileProblem(dir: string, name: string): string | null {
  try {
    if (lstatSync(dir).isSymbolicLink()) return `${dir} is a symlink: scripts must live in a real folder`;
    const stat = lstatSync(join(dir, name));
    if (stat.isSymbolicLink()) return 'is a symlink: put the script itself in HERMES_HOME/scripts';
    if (!stat.isFile()) return 'is not a regular file';
    if (stat.size > SCRIPT_MAX_BYTES) return `is larger than ${SCRIPT_MAX_BYTES} bytes`;
    return null;
  } catch {
    // ENOENT (or unreadable): there is nothing to run
    return `no such file in ${dir}`;
  }
}

export interface ScriptBytes {
  bytes: Buffer;
  /** sha256 (hex) of `bytes`: what consent is compared with */
  sha256: string;
}

/** Reads `dir/name` once, refusing a symlink (O_NOFOLLOW) and anything but a regular file; an error says why. */
export function readScript(dir: string, name: string): ScriptBytes | { error: string } {
  if (name.includes(sep) || name.includes('/') || name.startsWith('.')) return { error: 'not a plain file name' };
  const problem = fileProblem(dir, name);
  if (problem !== null) return { error: problem };
  let fd: number;
  try {
    fd = openSync(join(dir, name), constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (err) {
    return { error: `cannot be opened (${(err as NodeJS.ErrnoException).code ?? String(err)})` };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { error: 'is not a regular file' };
    if (stat.size > SCRIPT_MAX_BYTES) return { error: `is larger than ${SCRIPT_MAX_BYTES} bytes` };
    const bytes = readFileSync(fd);
    return { bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
  } finally {
    closeSync(fd);
  }
}
