/** Console output for log lines: JSON as is, or pretty-printed by pino-pretty (imported lazily). */

/** Where console lines go: process.stderr, or any writer (tests). */
export interface LineWriter {
  write(chunk: string): unknown;
}

export interface ConsoleSink {
  write(line: string): void;
  /** Resolves once every line written so far has been handed to the writer. */
  flush(): Promise<void>;
}

/** Writes each (already redacted) JSON line unchanged. */
export function jsonConsole(out: LineWriter): ConsoleSink {
  return {
    write: (line) => {
      out.write(line);
    },
    flush: async () => {},
  };
}

type Formatter = (line: string) => string;

async function loadPrettyFormatter(colorize: boolean): Promise<Formatter> {
  const pretty = await import('pino-pretty');
  const format = pretty.default.prettyFactory({ colorize, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
  return (line) => format(line);
}

/**
 * Human-readable console. pino-pretty is imported on first use only (it costs CLI start-up time);
 * lines logged meanwhile are queued and written in order once it is loaded. If it cannot be
 * loaded, the lines are written as JSON after a one-line notice.
 */
export function prettyConsole(out: LineWriter, colorize: boolean): ConsoleSink {
  let format: Formatter | null = null;
  const queue: string[] = [];
  const ready = loadPrettyFormatter(colorize).then(
    (loaded) => {
      format = loaded;
    },
    (error: unknown) => {
      out.write(`hermes: pino-pretty unavailable (${String(error)}); logging JSON to the console\n`);
      format = (line) => line;
    },
  );
  const drain = () => {
    if (format === null) return;
    for (const line of queue.splice(0)) out.write(format(line));
  };
  void ready.then(drain);
  return {
    write: (line) => {
      if (format === null) queue.push(line);
      else out.write(format(line));
    },
    flush: async () => {
      await ready;
      drain();
    },
  };
}
