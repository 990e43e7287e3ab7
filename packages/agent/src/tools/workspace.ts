/**
 * The tools' working directory. Normally the configured one (terminal.cwd or the process's); when
 * that is inside a HERMES_HOME outside its cache and workspaces (the installed service runs with
 * cwd = HERMES_HOME), each session works in its own `HERMES_HOME/workspaces/<session>` instead, so
 * no relative path of the model lands on the gateway's files.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { HERMES_HOME_OPEN_DIRS, segmentsUnder } from './protected-paths.js';

/** `HERMES_HOME/workspaces` when `cwd` is inside a HERMES_HOME but outside its cache/ and workspaces/, else null. */
export function workspacesRoot(cwd: string, hermesHomes: readonly string[]): string | null {
  // the innermost home first: a profile lives inside the root's profiles/
  for (const home of [...hermesHomes].reverse()) {
    const segments = segmentsUnder(home, cwd);
    if (segments === null) continue;
    const first = segments[0];
    return first !== undefined && HERMES_HOME_OPEN_DIRS.includes(first) ? null : path.join(home, 'workspaces');
  }
  return null;
}

/** A session id as one safe folder name (`default` for none). */
export function workspaceName(sessionId: string): string {
  const safe = sessionId.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '');
  return safe === '' ? 'default' : safe.slice(0, 120);
}

/** Resolves the working directory of one tool call: `base`, or the session's workspace (created) under `root`. */
export async function callWorkDir(base: string, root: string | null, sessionId: string): Promise<string> {
  if (root === null) return base;
  const dir = path.join(root, workspaceName(sessionId));
  await mkdir(dir, { recursive: true, mode: 0o700 });
  return dir;
}
