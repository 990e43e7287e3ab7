/** Process-level error reporting: unhandled rejections and uncaught exceptions go to the log. */

/** The part of a logger the guards use (pino loggers and @hermes/protocol's Logger fit). */
export interface GuardLogger {
  error(obj: object, msg?: string): void;
  fatal(obj: object, msg?: string): void;
}

/**
 * Logs `unhandledRejection` (error level; the process keeps running) and, through
 * `uncaughtExceptionMonitor`, uncaught exceptions (fatal level; Node then exits as usual).
 * Output goes through the logger, so it is redacted like every other line. Returns an uninstaller.
 */
export function installProcessGuards(logger: GuardLogger): () => void {
  const onRejection = (reason: unknown) => {
    logger.error({ err: reason }, 'unhandled promise rejection');
  };
  const onException = (error: Error, origin: string) => {
    logger.fatal({ err: error, origin }, 'uncaught exception');
  };
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtExceptionMonitor', onException);
  return () => {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtExceptionMonitor', onException);
  };
}
