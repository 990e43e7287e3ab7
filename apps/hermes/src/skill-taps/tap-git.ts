/**
 * The git a skill tap needs: a shallow clone, a fast-forward-only pull, and what a checkout holds
 * (its origin, its commit, whether its files are exactly that commit's). Local hooks and
 * fsmonitor are turned off for every command: a tap's `.git` is never a way to run code.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** git options that keep a checkout's own config from running anything. */
const SAFE = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', '-c', 'submodule.recurse=false'];

function lastLine(err: unknown): string {
  const stderr = (err as { stderr?: unknown }).stderr;
  const text = typeof stderr === 'string' && stderr.trim() !== '' ? stderr : err instanceof Error ? err.message : '';
  return text.trim().split('\n').pop() ?? '';
}

/** Runs git with `args` in `cwd`; resolves with stdout, trimmed. Throws one line saying what failed. */
export async function git(args: readonly string[], cwd: string, what: string): Promise<string> {
  try {
    const { stdout } = await run('git', [...SAFE, ...args], {
      cwd,
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
      maxBuffer: 16 * 1024 * 1024,
    });
    return stdout.trim();
  } catch (err) {
    if ((err as { code?: unknown }).code === 'ENOENT') throw new Error(`${what} failed: 'git' is not installed`);
    throw new Error(`${what} failed: ${lastLine(err)}`);
  }
}

/** `git clone --depth 1 URL DEST` (DEST must not exist). */
export async function cloneTap(url: string, dest: string, cwd: string): Promise<void> {
  await git(['clone', '--depth', '1', '--quiet', '--no-recurse-submodules', '--', url, dest], cwd, `git clone ${url}`);
}

export interface TapCheckout {
  /** the origin the tap was cloned from */
  url: string;
  /** HEAD's commit (full) */
  commit: string;
  /** no file differs from the commit and none is untracked, ignored ones included (all are hashed) */
  clean: boolean;
}

/** What a tap's checkout holds now. */
export async function tapCheckout(dir: string): Promise<TapCheckout> {
  const url = await git(['remote', 'get-url', 'origin'], dir, 'git remote get-url origin').catch(() => '?');
  const commit = await git(['rev-parse', 'HEAD'], dir, 'git rev-parse HEAD');
  const status = await git(['status', '--porcelain', '--untracked-files=all', '--ignored'], dir, 'git status');
  return { url, commit, clean: status === '' };
}

/** `git pull --ff-only`: the commits before and after, and the files the pull changed. */
export async function pullTap(dir: string): Promise<{ before: string; after: string; files: string[] }> {
  const before = await git(['rev-parse', 'HEAD'], dir, 'git rev-parse HEAD');
  await git(['pull', '--ff-only', '--quiet', '--no-recurse-submodules'], dir, 'git pull --ff-only');
  const after = await git(['rev-parse', 'HEAD'], dir, 'git rev-parse HEAD');
  const files =
    before === after
      ? []
      : (await git(['diff', '--name-only', before, after], dir, 'git diff')).split('\n').filter((f) => f !== '');
  return { before, after, files };
}
