/** Messages between the gateway (main thread) and the gateway hooks' worker thread. */

export type HookLogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';

/** What the worker is started with (`workerData`). */
export interface HookWorkerData {
  /** the worker module: `hook-worker.js` (built) or `hook-worker.ts` (sources, loaded through jiti) */
  entry: string;
  /** jiti's file, for loading the `.ts` entry */
  jiti: string;
  hooks: { name: string; handlerFile: string }[];
  home: string;
  /** approved sha256 per HERMES_HOME file, for `hermes.trustedFile` */
  trusted: Record<string, string>;
  /** module aliases for hook code, e.g. `@hermes/plugin-sdk` */
  aliases: Record<string, string>;
}

export type ToHookWorker =
  | { type: 'run'; id: number; hook: string; event: string; context: Record<string, unknown> }
  | { type: 'reply'; id: number; ok: boolean; result?: unknown; error?: string }
  | { type: 'ping' };

export type FromHookWorker =
  /** every handler imported (or failed to) */
  | { type: 'ready' }
  | { type: 'load-failed'; hook: string; reason: string }
  | { type: 'done'; id: number; error?: string }
  | { type: 'call'; id: number; hook: string; method: 'send' | 'runAgent'; args: unknown[] }
  | {
      type: 'log';
      hook: string;
      level: HookLogLevel;
      bindings: Record<string, unknown>;
      obj?: unknown;
      msg?: string;
    }
  | { type: 'pong' }
  /** process.exit was called in the worker: where from, to trace it to its hook */
  | { type: 'exiting'; stack: string };

/** A value that can cross a thread: as is when structured clone takes it, else as JSON data. */
export function cloneable<T>(value: T): T {
  try {
    return structuredClone(value);
  } catch {
    return JSON.parse(JSON.stringify(value ?? null)) as T;
  }
}
