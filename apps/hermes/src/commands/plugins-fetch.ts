/** Fetches an install source into a temporary folder: git clone --depth 1, npm pack + tar, or a local folder as is. */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { InstallSource } from './plugins-source.js';

const run = promisify(execFile);

export interface Fetched {
  /** the folder that should hold plugin.yaml */
  dir: string;
  /** the commit checked out, for git sources */
  commit: string | null;
  /** removes the temporary files (a no-op for local folders) */
  cleanup(): Promise<void>;
}

function lastLine(err: unknown): string {
  const stderr = (err as { stderr?: unknown }).stderr;
  const text = typeof stderr === 'string' && stderr.trim() !== '' ? stderr : err instanceof Error ? err.message : '';
  return text.trim().split('\n').pop() ?? '';
}

async function command(file: string, args: string[], cwd: string, what: string): Promise<string> {
  try {
    const { stdout } = await run(file, args, {
      cwd,
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
      maxBuffer: 16 * 1024 * 1024,
    });
    return stdout;
  } catch (err) {
    if ((err as { code?: unknown }).code === 'ENOENT') throw new Error(`${what} failed: '${file}' is not installed`);
    throw new Error(`${what} failed: ${lastLine(err)}`);
  }
}

async function cloneGit(url: string, tmp: string): Promise<{ dir: string; commit: string | null }> {
  const dir = join(tmp, 'src');
  await command('git', ['clone', '--depth', '1', '--quiet', '--', url, dir], tmp, `git clone ${url}`);
  const commit = (await command('git', ['rev-parse', 'HEAD'], dir, 'git rev-parse').catch(() => '')).trim();
  return { dir, commit: commit || null };
}

async function packNpm(spec: string, tmp: string): Promise<string> {
  // run from the user's folder so a relative spec (npm:./dir) and their .npmrc apply
  await command('npm', ['pack', spec, '--silent', '--pack-destination', tmp], process.cwd(), `npm pack ${spec}`);
  const tarball = (await readdir(tmp)).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack ${spec} produced no tarball`);
  await command('tar', ['-xzf', join(tmp, tarball), '-C', tmp], tmp, `tar -xzf ${tarball}`);
  return join(tmp, 'package');
}

/** Brings the source's files to a local folder; the caller must call cleanup(). */
export async function fetchSource(source: InstallSource): Promise<Fetched> {
  if (source.kind === 'dir') return { dir: source.path, commit: null, cleanup: async () => {} };
  const tmp = await mkdtemp(join(tmpdir(), 'hermes-plugin-'));
  const cleanup = () => rm(tmp, { recursive: true, force: true });
  try {
    if (source.kind === 'git') return { ...(await cloneGit(source.url, tmp)), cleanup };
    return { dir: await packNpm(source.spec, tmp), commit: null, cleanup };
  } catch (err) {
    await cleanup();
    throw err;
  }
}
