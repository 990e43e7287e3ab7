/**
 * The file tools' guard for one call: the configured working directory's guard, or, when that
 * directory is inside HERMES_HOME (the service layout), a guard whose working directory and
 * default root are the session's workspace (workspace.ts).
 */
import path from 'node:path';
import { safeIdentityName, type TurnUser } from '@hermes/protocol';
import { createFileGuard, type FileGuard } from './file-guard.js';
import type { Redactor } from './terminal-output.js';
import { callWorkDir, workspacesRoot } from './workspace.js';

export interface FileToolOptions {
  /** base for relative paths; process.cwd() by default */
  cwd?: string;
  /** the current secret values, replaced in what read_file returns (as the terminal tool does) */
  secrets?: () => string[];
  /** replaces secrets in text; no-op by default */
  redact?: Redactor;
  /** tools.file_roots: folders the file tools may use; default: cwd and <HERMES_HOME>/cache */
  fileRoots?: readonly string[];
  /** HERMES_HOME directories (root first, then the profile in use) whose .env, config, state, hooks and plugins are off limits */
  hermesHomes?: readonly string[];
  /** the user's home directory (~); os.homedir() by default */
  homeDir?: string;
}

/** The guard options of the file tools (`cwd`: the call's working directory, see workspace.ts). */
export function fileGuardOptions(options: FileToolOptions, cwd: string = options.cwd ?? process.cwd()) {
  return {
    cwd,
    ...(options.fileRoots ? { roots: options.fileRoots } : {}),
    ...(options.hermesHomes ? { hermesHomes: options.hermesHomes } : {}),
    ...(options.homeDir ? { homeDir: options.homeDir } : {}),
  };
}

/**
 * The users' received files (`<HERMES_HOME>/cache/media/<owner>/`, docs/security.md "Users apart"):
 * a turn of one user never reads or writes another user's folder there.
 */
function keepToOwnMedia(guard: FileGuard, hermesHomes: readonly string[], user: TurnUser | undefined): FileGuard {
  if (user === undefined || hermesHomes.length === 0) return guard;
  const own = safeIdentityName(user.key);
  return {
    ...guard,
    async check(p) {
      const guarded = await guard.check(p);
      if (!guarded.ok) return guarded;
      for (const home of hermesHomes) {
        const rel = path.relative(path.join(home, 'cache', 'media'), guarded.target);
        if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) continue;
        const folder = rel.split(path.sep)[0];
        if (rel.includes(path.sep) && folder !== own)
          return { ok: false, error: `${guarded.shown}: another user's file (each user's received files are theirs)` };
      }
      return guarded;
    },
  };
}

/** Returns the guard of a call by its session id and user. */
export function sessionFileGuard(options: FileToolOptions): (sessionId: string, user?: TurnUser) => Promise<FileGuard> {
  const cwd = options.cwd ?? process.cwd();
  const hermesHomes = options.hermesHomes ?? [];
  const root = workspacesRoot(cwd, hermesHomes);
  const fixed = createFileGuard(fileGuardOptions(options));
  if (root === null) return async (_sessionId, user) => keepToOwnMedia(fixed, hermesHomes, user);
  const home = path.dirname(root);
  return async (sessionId, user) => {
    const dir = await callWorkDir(cwd, root, sessionId);
    const roots = options.fileRoots ?? [dir, path.join(home, 'cache')];
    return keepToOwnMedia(createFileGuard({ ...fileGuardOptions(options, dir), roots }), hermesHomes, user);
  };
}
