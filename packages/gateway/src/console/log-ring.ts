/**
 * The last LOG_RING_SIZE log records, in memory, for the console's log view and its live tail.
 * Fed by the logger's tap with lines already redacted; a line that is not JSON is kept as its text.
 */

export const LOG_RING_SIZE = 1000;

export const LEVEL_NUMBERS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 } as const;
export type LevelName = keyof typeof LEVEL_NUMBERS;

export interface ConsoleLogRecord {
  time: number;
  level: LevelName;
  msg: string;
  component?: string;
}

export function isLevelName(value: unknown): value is LevelName {
  return typeof value === 'string' && Object.hasOwn(LEVEL_NUMBERS, value);
}

function levelName(level: number): LevelName {
  let name: LevelName = 'trace';
  for (const [n, v] of Object.entries(LEVEL_NUMBERS) as [LevelName, number][]) if (level >= v) name = n;
  return name;
}

/** One record of a pino JSON line (only what the console shows). */
export function parseLogLine(line: string, level: number): ConsoleLogRecord {
  try {
    const parsed = JSON.parse(line) as { time?: unknown; msg?: unknown; component?: unknown };
    return {
      time: typeof parsed.time === 'number' ? parsed.time : Date.now(),
      level: levelName(level),
      msg: typeof parsed.msg === 'string' ? parsed.msg : '',
      ...(typeof parsed.component === 'string' ? { component: parsed.component } : {}),
    };
  } catch {
    return { time: Date.now(), level: levelName(level), msg: line.trim() };
  }
}

export class LogRing {
  readonly #records: ConsoleLogRecord[] = [];
  readonly #listeners = new Set<(record: ConsoleLogRecord) => void>();
  readonly #size: number;

  constructor(size = LOG_RING_SIZE) {
    this.#size = size;
  }

  /** A logger tap: `(line, level) => void`. */
  readonly push = (line: string, level: number): void => {
    const record = parseLogLine(line, level);
    this.#records.push(record);
    if (this.#records.length > this.#size) this.#records.splice(0, this.#records.length - this.#size);
    for (const listener of this.#listeners) listener(record);
  };

  /** The newest `limit` records at or above `level`, oldest first. */
  query(level: LevelName, limit: number): ConsoleLogRecord[] {
    const min = LEVEL_NUMBERS[level];
    const matching = this.#records.filter((r) => LEVEL_NUMBERS[r.level] >= min);
    return matching.slice(Math.max(0, matching.length - limit));
  }

  /** Calls `listener` for every new record; returns the removal. */
  subscribe(listener: (record: ConsoleLogRecord) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
