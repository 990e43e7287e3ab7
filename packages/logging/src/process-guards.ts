/** Process-level error reporting: unhandled rejections and uncaught exceptions go to the log. */

/** The part of a logger the guards use (pino loggers and @hermes/protocol's Logger fit). */
export interface GuardLogger {
  error(obj: object, msg?: string): void;
  fatal(obj: object, msg?: string): void;
}

/**
 * Takes over an uncaught error it can trace to an extension (a plugin): logs it with the
 * extension's name and returns true, and the process keeps running. False: not one of theirs.
 */
export type FaultClaimer = (error: unknown, kind: 'exception' | 'rejection') => boolean;

/**
 * Logs `unhandledRejection` (error level; the process keeps running) and uncaught exceptions
 * (fatal level; then the process exits 1, as Node does). With `claim`, an error traced to a plugin is left to
 * it (logged with the plugin's name) and an uncaught exception from a plugin does not end the
 * process. Output goes through the logger, so it is redacted like every other line. Returns an
 * uninstaller.
 */
export function installProcessGuards(
  logger: GuardLogger,
  options: { claim?: FaultClaimer; exit?: (code: number) => never } = {},
): () => void {
  // the CLI passes its exitProcess: process.exit itself may be guarded
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const claimed = (error: unknown, kind: 'exception' | 'rejection') => {
    try {
      return options.claim?.(error, kind) === true;
    } catch {
      return false;
    }
  };
  const onRejection = (reason: unknown) => {
    if (claimed(reason, 'rejection')) return;
    logger.error({ err: reason }, 'unhandled promise rejection');
  };
  const onException = (error: Error, origin: string) => {
    logger.fatal({ err: error, origin }, 'uncaught exception');
  };
  // with a claimer, a handler (which keeps the process running for claimed errors); else a monitor (Node then exits)
  const onClaimable = (error: Error, origin: string) => {
    if (claimed(error, 'exception')) return;
    onException(error, origin);
    // what Node prints for an uncaught exception
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    // as Node does without a handler: after an unknown uncaught error the state cannot be trusted
    exit(1);
  };
  const event = options.claim ? 'uncaughtException' : 'uncaughtExceptionMonitor';
  const listener = options.claim ? onClaimable : onException;
  process.on('unhandledRejection', onRejection);
  process.on(event, listener);
  return () => {
    process.off('unhandledRejection', onRejection);
    process.off(event, listener);
  };
}
