/**
 * Where the file tools may go: inside `tools.file_roots` (default: the working directory and
 * HERMES_HOME/cache), after resolving symlinks, and never onto a protected path
 * (protected-paths.ts). A not-yet-existing path is judged by its nearest existing parent.
 */
import { realpath } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { errnoCode } from './errno.js';
import { type ProtectedPlaces, protectedReason, segmentsUnder } from './protected-paths.js';
import { resolveToolPath } from './resolve-tool-path.js';

export interface FileGuardOptions {
  /** base for relative paths */
  cwd: string;
  /** folders the tools may use (relative ones resolve against cwd, `~` expands); default [cwd, <first HERMES_HOME>/cache] */
  roots?: readonly string[];
  /** HERMES_HOME directories (the root and the profile in use) whose secrets, state and code are off limits */
  hermesHomes?: readonly string[];
  /** the user's home directory; os.homedir() by default */
  homeDir?: string;
}

/** A path the tool may use (`target` is symlink-free: read or write it) or the refusal for the model. */
export type GuardedPath = { ok: true; shown: string; target: string } | { ok: false; error: string };

export interface FileGuard {
  /** Checks a model-supplied path; never throws for a bad path. */
  check(input: string): Promise<GuardedPath>;
  /** the roots as configured (absolute) */
  readonly roots: readonly string[];
}

/** realpath of `p`, or of its nearest existing parent with the missing rest appended. */
export async function realpathNearest(p: string): Promise<string> {
  const missing: string[] = [];
  let current = p;
  for (;;) {
    try {
      return path.join(await realpath(current), ...missing.reverse());
    } catch (error) {
      const code = errnoCode(error);
      const parent = path.dirname(current);
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || parent === current) throw error;
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

/** The default roots: the working directory and HERMES_HOME/cache. */
export function defaultFileRoots(cwd: string, hermesHome: string | undefined): string[] {
  return hermesHome === undefined ? [cwd] : [cwd, path.join(hermesHome, 'cache')];
}

/** Creates the guard the file tools share. */
export function createFileGuard(options: FileGuardOptions): FileGuard {
  const homeDir = options.homeDir ?? os.homedir();
  const hermesHomes = options.hermesHomes ?? [];
  const roots = (options.roots ?? defaultFileRoots(options.cwd, hermesHomes[hermesHomes.length - 1])).map((r) =>
    resolveToolPath(r, options.cwd, homeDir),
  );
  const places: ProtectedPlaces = { hermesHomes, homeDir };
  // the protected places as written and with their symlinks resolved (both are checked)
  let realPlaces: Promise<ProtectedPlaces> | undefined;
  const resolvedPlaces = async (): Promise<ProtectedPlaces> => ({
    hermesHomes: await Promise.all(hermesHomes.map(realpathNearest)),
    homeDir: await realpathNearest(homeDir),
  });

  const check = async (input: string): Promise<GuardedPath> => {
    const shown = resolveToolPath(input, options.cwd, homeDir);
    const refuse = (why: string): GuardedPath => ({ ok: false, error: `Access denied: ${shown}: ${why}` });
    if (input.split(/[\\/]+/).includes('..')) return refuse('paths with ".." are not allowed; give the path directly');
    let target: string;
    try {
      target = await realpathNearest(shown);
    } catch (error) {
      return refuse(`cannot resolve the path (${errnoCode(error) ?? String(error)})`);
    }
    realPlaces ??= resolvedPlaces();
    const why = protectedReason(shown, places) ?? protectedReason(target, await realPlaces);
    if (why !== null) return refuse(`protected path (${why}); file tools never read or write it`);
    for (const root of roots) {
      const realRoot = await realpathNearest(root).catch(() => root);
      if (segmentsUnder(realRoot, target) !== null) return { ok: true, shown, target };
    }
    const via = target === shown ? '' : ` (it resolves to ${target})`;
    return refuse(`outside the allowed folders${via}; tools.file_roots allows: ${roots.join(', ')}`);
  };

  return { check, roots };
}
