/**
 * `process.exit` belongs to the CLI: plugin code (register(), hook callbacks, timers they start)
 * calling it would stop the gateway. The guard replaces `process.exit` with a function that throws
 * ExitRefusedError, so the call fails where it was made (a plugin's register() fails, a hook
 * callback fails) and the process goes on; the CLI itself leaves through `exitProcess`.
 */

/** process.exit as it was when this module loaded (before any plugin code ran). */
const realExit: (code?: number) => never = process.exit.bind(process);

/** What a guarded `process.exit(code)` throws. */
export class ExitRefusedError extends Error {
  readonly code = 'ERR_EXIT_REFUSED';
  constructor(readonly exitCode: number | string | null | undefined) {
    super(`process.exit(${exitCode ?? ''}) refused: only Hermes itself may end the process`);
    this.name = 'ExitRefusedError';
  }
}

/** Ends the process: the one way the CLI and the daemon exit once the guard is installed. */
export function exitProcess(code?: number): never {
  return realExit(code);
}

/** Replaces `process.exit` with the refusing guard; returns the function that puts it back. */
export function installExitGuard(): () => void {
  const previous = process.exit;
  const guard = (code?: number | string | null): never => {
    throw new ExitRefusedError(code);
  };
  process.exit = guard as typeof process.exit;
  return () => {
    if (process.exit === guard) process.exit = previous;
  };
}
