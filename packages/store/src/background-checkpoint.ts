/**
 * WAL checkpoints off the main thread. SQLite's automatic checkpoint runs inside whichever commit
 * pushes the WAL past 1000 pages, on the committing (main) thread: it copies the pages into the
 * database and, with `synchronous = NORMAL`, fsyncs the WAL and the database file, which blocks
 * the event loop for 5 to 70 ms once every few hundred commits (the gateway's latency tail).
 *
 * Once the WAL has seen some traffic, a worker thread opens its own connection and runs PASSIVE
 * checkpoints (which never take the write lock) whenever the database changed; the main connection's
 * automatic checkpoint is then switched off. The worker starts lazily, so an idle process never pays
 * for it, and if it cannot start or dies, the automatic checkpoint is switched back on. Durability
 * is unchanged: the same checkpoint with the same syncs, on another thread.
 */
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { SqliteDatabase } from './sqlite.js';

/** SQLite's default `wal_autocheckpoint`, restored when the worker is gone. */
export const AUTO_CHECKPOINT_PAGES = 1000;
/** The worker starts once the WAL file has grown past this many bytes (an idle gateway never starts it). */
export const BACKGROUND_CHECKPOINT_START_BYTES = 256 * 1024;
/** How often the main thread looks at the WAL's size before the worker runs. */
export const WAL_SIZE_CHECK_MS = 1_000;
/** How often the worker checks for new commits to checkpoint. */
export const CHECKPOINT_INTERVAL_MS = 200;

// CommonJS, evaluated in the worker: runs from the TypeScript sources (tests) and from dist alike
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.sqlite);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('busy_timeout = ' + workerData.busyTimeoutMs);
db.pragma('synchronous = NORMAL');
let seen = null;
const timer = setInterval(() => {
  try {
    const version = db.pragma('data_version', { simple: true });
    if (version === seen) return;
    seen = version;
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    // SQLITE_BUSY and the like: the next round tries again
  }
}, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'close') return;
  clearInterval(timer);
  try { db.close(); } catch {}
  parentPort.close();
});
parentPort.postMessage('ready');
`;

// an error thrown in the worker arrives as a structured copy: SQLite's own errors keep only their
// `code` (SQLITE_CANTOPEN), built-in ones their message
const describe = (error: unknown): string => {
  const { message, code } = (error ?? {}) as { message?: unknown; code?: unknown };
  if (typeof message === 'string') return message;
  return typeof code === 'string' ? code : String(error);
};

export interface BackgroundCheckpoints {
  /** true while the worker does the checkpoints */
  readonly running: boolean;
  /** why the worker could not start or stopped (the automatic checkpoint is back on), else null */
  readonly failure: string | null;
  /** Stops watching; the worker closes its connection (the last one to close checkpoints the WAL). */
  close(): void;
}

/** Watches `db` (a WAL database at `path`) and moves its checkpoints to a worker once it sees writes. */
export function backgroundCheckpoints(
  db: SqliteDatabase,
  path: string,
  options: { busyTimeoutMs: number; startBytes?: number; checkMs?: number; intervalMs?: number },
): BackgroundCheckpoints {
  const startBytes = options.startBytes ?? BACKGROUND_CHECKPOINT_START_BYTES;
  let worker: Worker | null = null;
  let running = false;
  let closed = false;
  let failed = false;
  let failure: string | null = null;
  const walSize = (): number => {
    try {
      return statSync(`${path}-wal`).size;
    } catch {
      return 0;
    }
  };
  const fallBack = (reason: string) => {
    running = false;
    failed = true;
    failure = reason;
    worker = null;
    if (!closed && db.open) db.pragma(`wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`);
  };
  const start = () => {
    clearInterval(watch);
    try {
      worker = new Worker(WORKER_SOURCE, {
        eval: true,
        workerData: {
          path,
          sqlite: createRequire(import.meta.url).resolve('better-sqlite3'),
          busyTimeoutMs: options.busyTimeoutMs,
          intervalMs: options.intervalMs ?? CHECKPOINT_INTERVAL_MS,
        },
        // none of the parent's loader flags (--import, --require): the worker needs node and SQLite only
        execArgv: [],
        // a small heap: the worker holds one connection and a timer
        resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 },
      });
    } catch (error) {
      fallBack(`the checkpoint worker did not start: ${describe(error)}`);
      return;
    }
    worker.unref();
    worker.once('message', () => {
      if (closed || failed || !db.open) return;
      db.pragma('wal_autocheckpoint = 0');
      running = true;
    });
    worker.once('error', (error) => fallBack(`the checkpoint worker failed: ${describe(error)}`));
    worker.once('exit', (code) => {
      if (!closed && !failed) fallBack(`the checkpoint worker exited with code ${code}`);
    });
  };
  const watch = setInterval(() => {
    if (!closed && !failed && worker === null && walSize() >= startBytes) start();
  }, options.checkMs ?? WAL_SIZE_CHECK_MS);
  watch.unref();
  return {
    get running() {
      return running;
    },
    get failure() {
      return failure;
    },
    close() {
      if (closed) return;
      closed = true;
      running = false;
      clearInterval(watch);
      worker?.postMessage('close');
    },
  };
}
