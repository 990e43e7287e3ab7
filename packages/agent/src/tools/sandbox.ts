/**
 * The `sandbox` terminal backend: each command runs inside bubblewrap (bwrap) with the system
 * read-only, only the working directory writable, a private /tmp, every namespace unshared (no
 * network unless asked), and HERMES_HOME and the user's keys hidden under empty tmpfs mounts (even
 * where they do not exist yet inside the working directory). In the service layout the working
 * directory is the session's workspace under HERMES_HOME (workspace.ts), bound into the hidden home.
 */
import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { errnoCode, errorMessage } from './errno.js';

export const BWRAP = 'bwrap';
const PROBE_TIMEOUT_MS = 10_000;

export interface SandboxSpec {
  /** the writable working directory */
  workDir: string;
  /** where the command starts */
  commandCwd: string;
  /** share the host's network namespace (tools.terminal.network) */
  network: boolean;
  /** absolute paths to hide (those that do not exist are skipped) */
  hide: readonly string[];
}

function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || !(rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel));
}

/**
 * The bwrap arguments hiding `target`: an empty tmpfs over a directory, /dev/null over a file.
 * An absent path inside the writable `workDir` gets an empty tmpfs too (so a command cannot create
 * it on the host); elsewhere an absent path is read-only anyway and skipped.
 */
async function hideArgs(target: string, workDir: string): Promise<string[]> {
  try {
    const info = await stat(target);
    return info.isDirectory() ? ['--tmpfs', target] : ['--ro-bind', '/dev/null', target];
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return isInside(workDir, target) ? ['--tmpfs', target] : [];
    throw error;
  }
}

/** The bwrap argument list (without the command) for `spec`. */
export async function bwrapArgs(spec: SandboxSpec): Promise<string[]> {
  // a hidden directory that contains the working directory is hidden first, then the working directory bound into it
  const around = spec.hide.filter((h) => isInside(h, spec.workDir));
  const within = spec.hide.filter((h) => !isInside(h, spec.workDir));
  const hideAll = async (paths: readonly string[]) =>
    (await Promise.all(paths.map((p) => hideArgs(p, spec.workDir)))).flat();
  return [
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
    ...(await hideAll(around)),
    '--bind',
    spec.workDir,
    spec.workDir,
    ...(await hideAll(within)),
    '--unshare-all',
    ...(spec.network ? ['--share-net'] : []),
    '--die-with-parent',
    '--new-session',
    '--chdir',
    spec.commandCwd,
  ];
}

export type SandboxProbe = { ok: true } | { ok: false; error: string };

/** Starts `bwrap` once with the sandbox's namespaces and mounts; says why it cannot be used. */
export function probeSandbox(bwrap: string = BWRAP): Promise<SandboxProbe> {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  args.push('--unshare-all', '--die-with-parent', '--new-session', 'true');
  return new Promise((resolve) => {
    execFile(bwrap, args, { timeout: PROBE_TIMEOUT_MS }, (error, _stdout, stderr) => {
      if (!error) return resolve({ ok: true });
      if (errnoCode(error) === 'ENOENT') {
        return resolve({
          ok: false,
          error: `bubblewrap is not installed (${bwrap} not found; apt-get install bubblewrap)`,
        });
      }
      const why = stderr.trim() || errorMessage(error);
      resolve({ ok: false, error: `bubblewrap (${bwrap}) failed to start a sandbox: ${why}` });
    });
  });
}
