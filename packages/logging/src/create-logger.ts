/** createLogger: pino writing redacted JSON lines to a file and, optionally, to the console. */
import pino, { type Logger } from 'pino';
import { type ConsoleSink, jsonConsole, type LineWriter, prettyConsole } from './console-sink.js';
import { type FileSink, openFileSink } from './file-sink.js';
import { LOG_LEVELS, type LogLevel } from './levels.js';
import { REDACT_PATHS } from './redact-paths.js';
import { createRedactor } from './redact-text.js';
import { type LineTap, RedactingDestination } from './redacting-destination.js';
import { REDACTED } from './secret-patterns.js';

export const DEFAULT_LOG_FILE = 'gateway.log';

export interface CreateLoggerOptions {
  /** directory of the log file (created if missing); omit for no file */
  dir?: string;
  /** file name inside `dir`; default "gateway.log" */
  fileName?: string;
  /** minimum level written to the file */
  level: LogLevel;
  /** literal values to redact (e.g. from `secretValues` of @hermes/config) */
  secrets: readonly string[];
  /** the process's redactor, already built from `secrets` (else one is built here) */
  redactor?: (text: string) => string;
  /** console output on stderr: pretty-printed, JSON lines, or none (default) */
  console?: 'pretty' | 'json' | false;
  /** minimum level for the console; default: `level` */
  consoleLevel?: LogLevel;
  /** the `name` field of every line */
  name?: string;
  /** where console lines go; default process.stderr */
  consoleStream?: LineWriter;
  /** pretty colours; default: whether the console stream is a TTY */
  colorize?: boolean;
}

export interface LoggerHandle {
  /** a pino logger; it satisfies the `Logger` interface of @hermes/protocol */
  logger: Logger;
  /** absolute path of the log file, or null without one */
  file: string | null;
  /**
   * Gets every line the logger writes from now on, already redacted, with its numeric level (the
   * console's log ring buffer); returns the removal. Lines below the logger's level are never made.
   */
  tap(listener: LineTap): () => void;
  /** Resolves when every line logged so far is in the file and handed to the console. */
  flush(): Promise<void>;
  /** flush, then close the file; later log calls are dropped. */
  close(): Promise<void>;
}

function isTty(stream: LineWriter): boolean {
  return 'isTTY' in stream && stream.isTTY === true;
}

function makeConsole(options: CreateLoggerOptions): ConsoleSink | null {
  if (options.console === undefined || options.console === false) return null;
  const out = options.consoleStream ?? process.stderr;
  if (options.console === 'json') return jsonConsole(out);
  const colorize = options.colorize ?? (isTty(out) && process.env.NO_COLOR === undefined);
  return prettyConsole(out, colorize);
}

/** Creates the process logger. Every line is redacted (secrets, token shapes, credential keys) before any output. */
export function createLogger(options: CreateLoggerOptions): LoggerHandle {
  const fileLevel = LOG_LEVELS[options.level];
  const consoleLevel = LOG_LEVELS[options.consoleLevel ?? options.level];
  const fileSink: FileSink | null =
    options.dir === undefined ? null : openFileSink(options.dir, options.fileName ?? DEFAULT_LOG_FILE);
  const consoleSink = makeConsole(options);
  const destination = new RedactingDestination({
    redact: options.redactor ?? createRedactor(options.secrets),
    file: fileSink === null ? null : { sink: fileSink, minLevel: fileLevel },
    console: consoleSink === null ? null : { sink: consoleSink, minLevel: consoleLevel },
  });
  const levels = [...(fileSink ? [fileLevel] : []), ...(consoleSink ? [consoleLevel] : [])];
  const lowest = Math.min(...levels);
  const level = Object.entries(LOG_LEVELS).find(([, value]) => value === lowest)?.[0] ?? 'silent';
  const logger = pino(
    {
      level,
      ...(options.name === undefined ? {} : { name: options.name }),
      redact: { paths: [...REDACT_PATHS], censor: REDACTED },
      serializers: { err: pino.stdSerializers.err, error: pino.stdSerializers.err },
    },
    destination,
  );
  const flush = async () => {
    await consoleSink?.flush();
  };
  return {
    logger,
    file: fileSink?.path ?? null,
    tap: (listener) => destination.tap(listener),
    flush,
    close: async () => {
      await flush();
      destination.close();
      await fileSink?.close();
    },
  };
}
