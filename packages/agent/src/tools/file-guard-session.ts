/**
 * The file tools' guard for one call: the configured working directory's guard, or, when that
 * directory is inside HERMES_HOME (the service layout), a guard whose working directory and
 * default root are the session's workspace (workspace.ts).
 */
import path from 'node:path';
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

/** Returns the guard of a call by its session id. */
export function sessionFileGuard(options: FileToolOptions): (sessionId: string) => Promise<FileGuard> {
  const cwd = options.cwd ?? process.cwd();
  const hermesHomes = options.hermesHomes ?? [];
  const root = workspacesRoot(cwd, hermesHomes);
  const fixed = createFileGuard(fileGuardOptions(options));
  if (root === null) return async () => fixed;
  const home = path.dirname(root);
  return async (sessionId) => {
    const dir = await callWorkDir(cwd, root, sessionId);
    const roots = options.fileRoots ?? [dir, path.join(home, 'cache')];
    return createFileGuard({ ...fileGuardOptions(options, dir), roots });
  };
}
