/** Log levels: pino's names and numbers. */

export const LOG_LEVELS = Object.freeze({ trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 } as const);

export type LogLevel = keyof typeof LOG_LEVELS;

/** True when `name` is one of LOG_LEVELS' names. */
export function isLogLevel(name: string): name is LogLevel {
  return Object.hasOwn(LOG_LEVELS, name);
}

const LINE_LEVEL = /^\{"level":(\d+)/;

/** The numeric level of a pino JSON line (pino writes it first); Infinity when absent, so it is never filtered out. */
export function levelOfLine(line: string): number {
  const match = LINE_LEVEL.exec(line);
  return match?.[1] === undefined ? Number.POSITIVE_INFINITY : Number(match[1]);
}
