/**
 * Reads a consent file's `approvals` list (the hook allowlist, trust.json). A missing file is an
 * empty list; an unreadable or corrupt one is empty too, with `problem` saying why (consent is
 * then asked again), never thrown: a broken consent file must not stop the agent.
 */
import { readFileSync } from 'node:fs';

export function readApprovals(path: string): { approvals: unknown[]; problem: string | null } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const problem = code === 'ENOENT' ? null : `cannot read ${path} (${code ?? String(error)}); treated as empty`;
    return { approvals: [], problem };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // reported through `problem`, never thrown
    return { approvals: [], problem: `${path} is not valid JSON; treated as empty` };
  }
  const approvals = (json as { approvals?: unknown } | null)?.approvals;
  if (typeof json !== 'object' || json === null || !Array.isArray(approvals)) {
    return { approvals: [], problem: `${path} has no "approvals" list; treated as empty` };
  }
  return { approvals, problem: null };
}
