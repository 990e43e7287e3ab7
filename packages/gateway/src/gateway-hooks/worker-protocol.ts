/** Messages between the gateway (main thread) and a gateway hook's worker thread. */

export type HookLogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';

/** What the worker is started with (`workerData`). */
export interface HookWorkerData {
  /** the worker module: `hook-worker.js` (built) or `hook-worker.ts` (sources, loaded through jiti) */
  entry: string;
  /** jiti's file, for loading the `.ts` entry */
  jiti: string;
  name: string;
  handlerFile: string;
  home: string;
  /** module aliases for hook code, e.g. `@hermes/plugin-sdk` */
  aliases: Record<string, string>;
}

export type ToHookWorker =
  | { type: 'run'; id: number; event: string; context: Record<string, unknown> }
  | { type: 'reply'; id: number; ok: boolean; result?: unknown; error?: string }
  | { type: 'ping' };

export type FromHookWorker =
  | { type: 'ready' }
  | { type: 'load-failed'; reason: string }
  | { type: 'done'; id: number; error?: string }
  | { type: 'call'; id: number; method: 'send' | 'runAgent'; args: unknown[] }
  | { type: 'log'; level: HookLogLevel; bindings: Record<string, unknown>; obj?: unknown; msg?: string }
  | { type: 'pong' };

/** Values that cannot cross a thread (functions, class instances with handles) as plain JSON data. */
export function cloneable<T>(value: T): T {
  try {
    return structuredClone(value);
  } catch {
    return JSON.parse(JSON.stringify(value ?? null)) as T;
  }
}
