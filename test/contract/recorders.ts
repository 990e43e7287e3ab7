// What a platform test watches an adapter through: a logger that keeps every line, a sink that
// records (and can fail or hold) accepts, in-memory platform state, and polling helpers. Shared by
// the per-platform tests (plugins/platforms/*/test) and the contract suite's adapter harness.
import type { InboundSink, Logger, MessageEvent, PlatformContext } from '@hermes/protocol';
import { waitFor } from '../helpers/wait-for.js';

export interface LogLine {
  level: string;
  obj: unknown;
  msg: string | undefined;
}

/** A Logger that keeps every line. */
export function recordingLogger(lines: LogLine[] = []): { logger: Logger; lines: LogLine[] } {
  const at =
    (level: string) =>
    (obj: unknown, msg?: string): void => {
      lines.push(typeof obj === 'string' ? { level, obj: null, msg: obj } : { level, obj, msg });
    };
  const logger: Logger = {
    trace: at('trace'),
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    fatal: at('fatal'),
    child: () => logger,
  };
  return { logger, lines };
}

/** Every logged line as one searchable text. */
export function logText(lines: readonly LogLine[]): string {
  return lines.map((line) => `${line.level} ${line.msg ?? ''} ${JSON.stringify(line.obj)}`).join('\n');
}

export type AcceptOptions = Parameters<InboundSink['accept']>[1];

export interface RecordingSink {
  sink: InboundSink;
  /** events accepted (stored) */
  events: MessageEvent[];
  /** every accept() call, failed ones included */
  attempts: MessageEvent[];
  /** the options of every accept() call */
  options: AcceptOptions[];
  /** makes the next `times` accept() calls throw, as a locked database would */
  failNext(times?: number): void;
  /** runs `fn` on every accept() call, before it succeeds or fails */
  onAccept(fn: (event: MessageEvent) => void): void;
  /** makes accept() wait until the returned release function is called */
  hold(): () => void;
}

/**
 * A sink that records accepted events. Given a state, it stores `options.state` there on success,
 * as the gateway does in its accept transaction.
 */
export function recordingSink(state?: PlatformContext['state']): RecordingSink {
  const options: AcceptOptions[] = [];
  const events: MessageEvent[] = [];
  const attempts: MessageEvent[] = [];
  let failures = 0;
  let hook: ((event: MessageEvent) => void) | undefined;
  let gate: Promise<void> | undefined;
  return {
    events,
    attempts,
    options,
    failNext: (times = 1) => {
      failures += times;
    },
    onAccept: (fn) => {
      hook = fn;
    },
    hold() {
      let release: () => void = () => {};
      gate = new Promise((resolve) => {
        release = resolve;
      });
      return () => {
        gate = undefined;
        release();
      };
    },
    sink: {
      async accept(event, acceptOptions) {
        attempts.push(event);
        options.push(acceptOptions);
        hook?.(event);
        if (gate !== undefined) await gate;
        if (failures > 0) {
          failures -= 1;
          throw new Error('sink: database is locked');
        }
        events.push(event);
        for (const [key, value] of Object.entries(acceptOptions?.state ?? {})) state?.set(key, value);
      },
    },
  };
}

/** In-memory platform state. */
export function memoryState(initial: Record<string, string> = {}): PlatformContext['state'] & {
  values: Map<string, string>;
} {
  const values = new Map(Object.entries(initial));
  return {
    values,
    get: (key) => values.get(key),
    set: (key, value) => void values.set(key, value),
    delete: (key) => void values.delete(key),
  };
}

/** Polls `check` until it returns true (or fails after `timeoutMs`, default 30 s, naming `what` it waited for, told at that moment). */
export async function eventually(
  check: () => boolean,
  timeoutMs?: number,
  what?: string | (() => string),
): Promise<void> {
  await waitFor(check, { timeoutMs, what, stepMs: 5 });
}

/** Resolves with the next event the recorder accepts (removing it). */
export async function nextEvent(events: MessageEvent[], timeoutMs?: number): Promise<MessageEvent> {
  await eventually(() => events.length > 0, timeoutMs);
  const event = events.shift();
  if (event === undefined) throw new Error('no event');
  return event;
}

/** Waits `ms` (only where a test must show that something does NOT happen). */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
