/** One shell-hook run, as `hermes hooks test` and `hermes hooks doctor` show it. */
import type { ShellHookReport } from '@hermes/plugins';
import { HOOKS, type HookName } from '@hermes/protocol';

/** The parsed response in words: `block: …`, `context: …`, `replace: …`, or what nothing means for the kind. */
export function describeResult(event: HookName, result: unknown): string {
  const kind = HOOKS[event].kind;
  switch (kind) {
    case 'gate': {
      const message = typeof result === 'object' && result !== null && 'message' in result ? result.message : null;
      return typeof message === 'string' ? `block: ${message}` : 'no block (the call goes ahead)';
    }
    case 'inject':
      return result === null ? 'no context' : `context: ${JSON.stringify(result)}`;
    case 'transform':
      return result === null ? 'no replacement' : `replace: ${JSON.stringify(result)}`;
    case 'dispatch':
      return result === null ? 'no decision (allow)' : `dispatch: ${JSON.stringify(result)}`;
    case 'observe':
      return 'observer (output ignored)';
  }
}

/** How the process ended: `exit 0 in 12 ms`. */
export function describeProcess(report: ShellHookReport<HookName>): string {
  const p = report.process;
  if (p === null) return 'not run';
  const end =
    p.outcome === 'timeout'
      ? 'timed out'
      : p.outcome === 'spawn_error'
        ? 'did not start'
        : p.exitCode === null
          ? `killed by ${p.signal ?? 'a signal'}`
          : `exit ${p.exitCode}`;
  return `${end} in ${p.durationMs} ms`;
}
