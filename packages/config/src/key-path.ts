/** Dotted key paths as users write them: `hooks.pre_tool_call[0].command`. */
import type { KeyPath } from './schema-walk.js';

/** Formats a key path; list indices use brackets. The empty path is "top level". */
export function formatKeyPath(path: KeyPath): string {
  if (path.length === 0) return 'top level';
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? segment : `.${segment}`;
  }
  return out;
}
