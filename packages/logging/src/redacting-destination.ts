/**
 * The pino destination: every serialized line is redacted once, then written to the log file and/or
 * the console, each with its own minimum level. Nothing reaches a sink unredacted.
 */

import type { ConsoleSink } from './console-sink.js';
import { levelOfLine } from './levels.js';

export interface LineSink {
  write(line: string): void;
}

export interface RedactingDestinationOptions {
  redact: (text: string) => string;
  file: { sink: LineSink; minLevel: number } | null;
  console: { sink: ConsoleSink; minLevel: number } | null;
}

/** Gets every redacted line the logger writes (the console's log ring buffer); must not throw. */
export type LineTap = (line: string, level: number) => void;

export class RedactingDestination {
  readonly #options: RedactingDestinationOptions;
  readonly #taps = new Set<LineTap>();
  #closed = false;

  constructor(options: RedactingDestinationOptions) {
    this.#options = options;
  }

  /** Called by pino with one JSON line (newline included). Ignored after close. */
  write(line: string): void {
    if (this.#closed) return;
    const level = levelOfLine(line);
    const clean = this.#options.redact(line);
    const { file, console } = this.#options;
    if (file !== null && level >= file.minLevel) file.sink.write(clean);
    if (console !== null && level >= console.minLevel) console.sink.write(clean);
    for (const tap of this.#taps) {
      try {
        tap(clean, level);
      } catch {
        // a tap's failure never stops logging
      }
    }
  }

  /** Adds a listener of every redacted line; returns its removal. */
  tap(listener: LineTap): () => void {
    this.#taps.add(listener);
    return () => this.#taps.delete(listener);
  }

  /** Stops accepting lines (later log calls are dropped instead of failing). */
  close(): void {
    this.#closed = true;
  }
}
