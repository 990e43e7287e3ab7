/** The gateway's Logger in the shape Bolt and the Slack SDKs log to, with their level filter. */
import type { Logger } from '@hermes/protocol';
import { type Logger as BoltLogger, LogLevel } from '@slack/bolt';
import type { SdkLogLevel } from './settings.js';

const SEVERITY: Record<LogLevel, number> = {
  [LogLevel.DEBUG]: 0,
  [LogLevel.INFO]: 1,
  [LogLevel.WARN]: 2,
  [LogLevel.ERROR]: 3,
};

function text(parts: readonly unknown[]): string {
  return parts
    .map((part) => {
      if (typeof part === 'string') return part;
      if (part instanceof Error) return part.message;
      try {
        return JSON.stringify(part);
      } catch {
        return String(part);
      }
    })
    .join(' ');
}

const LEVELS: Record<SdkLogLevel, LogLevel> = {
  debug: LogLevel.DEBUG,
  info: LogLevel.INFO,
  warn: LogLevel.WARN,
  error: LogLevel.ERROR,
};

/**
 * Lines go to `logger` as `slack sdk: ...`; below `level` they are dropped. Bolt resets the level
 * of a logger it is given (to its own default) unless told otherwise, so setLevel is ignored: the
 * setting decides.
 */
export function boltLogger(logger: Logger, level: SdkLogLevel): BoltLogger {
  const current = LEVELS[level];
  const at =
    (lineLevel: LogLevel, write: (message: string) => void) =>
    (...parts: unknown[]): void => {
      if (SEVERITY[lineLevel] >= SEVERITY[current]) write(`slack sdk: ${text(parts)}`);
    };
  return {
    debug: at(LogLevel.DEBUG, (message) => logger.debug(message)),
    info: at(LogLevel.INFO, (message) => logger.info(message)),
    warn: at(LogLevel.WARN, (message) => logger.warn(message)),
    error: at(LogLevel.ERROR, (message) => logger.error(message)),
    setLevel() {},
    getLevel: () => current,
    setName() {},
  };
}
