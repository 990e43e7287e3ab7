/** How any failure leaves the CLI: one line on stderr, the contract's exit code, no stack trace. */
import { ERROR_CODES, EXIT, HermesError } from '@hermes/protocol';

/** An error that carries the exit code the CLI must leave with. */
export class CliExit extends Error {
  readonly exitCode: number;
  constructor(exitCode: number, message = '') {
    super(message);
    this.exitCode = exitCode;
  }
}

/** The exit code for an error: 78 for invalid configuration, 2 for usage, else 1. */
export function exitCodeFor(err: unknown): number {
  if (err instanceof CliExit) return err.exitCode;
  if (err instanceof HermesError) {
    if (
      err.code === ERROR_CODES.CONFIG_SYNTAX ||
      err.code === ERROR_CODES.CONFIG_TYPE ||
      err.code === ERROR_CODES.CONFIG_KEY
    ) {
      return EXIT.CONFIG;
    }
    if (err.code === ERROR_CODES.USAGE) return EXIT.USAGE;
  }
  return EXIT.ERROR;
}

/** The one line printed for an error. */
export function errorLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return `hermes: ${message.split('\n')[0]}`;
}
