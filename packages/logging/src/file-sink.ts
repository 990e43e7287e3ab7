/** The log file: appended synchronously, so a crash never loses the lines logged before it. */
import { join } from 'node:path';
import pino from 'pino';
import type { LineSink } from './redacting-destination.js';

export interface FileSink extends LineSink {
  path: string;
  /** Closes the file; resolves when it is closed. */
  close(): Promise<void>;
}

/** Log files may quote user messages: owner-only. */
const LOG_FILE_MODE = 0o600;

/** Opens `<dir>/<fileName>` for appending (creating `dir`). A write error disables the file with a notice on stderr. */
export function openFileSink(dir: string, fileName: string): FileSink {
  const path = join(dir, fileName);
  const stream = pino.destination({ dest: path, mkdir: true, sync: true, append: true, mode: LOG_FILE_MODE });
  let failed = false;
  stream.on('error', (error: unknown) => {
    if (failed) return;
    failed = true;
    process.stderr.write(`hermes: cannot write log file ${path}: ${String(error)}; file logging stopped\n`);
  });
  let closing: Promise<void> | null = null;
  return {
    path,
    write(line) {
      if (!failed && closing === null) stream.write(line);
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        if (failed) return resolve();
        stream.once('close', () => resolve());
        stream.end();
      });
      return closing;
    },
  };
}
