/**
 * One gateway hook in its own worker thread, seen from the gateway: runs are posted to the worker
 * and resolve when the handler finishes. A worker that dies (process.exit, an uncaught error, a
 * rejection nobody handled, out of memory) is logged with the hook's name and restarted with
 * backoff; one that stops answering (a busy loop) while a run is overdue is terminated and
 * restarted. Nothing here ever throws into the gateway.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { GatewayHookApi, Logger } from '@hermes/protocol';
import type { GatewayHookSpec } from './discover.js';
import { cloneable, type FromHookWorker, type HookWorkerData, type ToHookWorker } from './worker-protocol.js';

export interface HookThreadOptions {
  api: GatewayHookApi;
  logger: Logger;
  aliases: Record<string, string>;
  /** a run older than this makes the gateway check that the worker still answers (gateway.hook_timeout_s) */
  timeoutMs: number;
  /** how long an overdue worker has to answer a ping before it is terminated */
  graceMs?: number;
  /** first restart delay; doubles per crash in a row, up to maxBackoffMs */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** heap limit of the worker */
  maxHeapMb?: number;
}

/** The worker module, next to this file: built `.js`, or the `.ts` source when running from sources. */
const SELF = fileURLToPath(import.meta.url);
const ENTRY = SELF.replace(/hook-thread\.(ts|js)$/, 'hook-worker.$1');
// CommonJS, evaluated in the worker: the built module is imported as is, the source through jiti
const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
const { pathToFileURL } = require('node:url');
if (workerData.entry.endsWith('.ts')) {
  import(pathToFileURL(workerData.jiti).href).then(({ createJiti }) => createJiti(workerData.entry).import(workerData.entry));
} else {
  import(pathToFileURL(workerData.entry).href);
}
`;
const QUEUE_LIMIT = 100;
/** a handler gets at least this long to import before it counts as stuck */
const LOAD_ALLOWANCE_MS = 30_000;

interface PendingRun {
  resolve(): void;
  reject(err: Error): void;
  started: number;
}

export class HookThread {
  readonly name: string;
  readonly #spec: GatewayHookSpec;
  readonly #o: Required<HookThreadOptions>;
  #worker: Worker | null = null;
  #startedAt = 0;
  #crashes = 0;
  #dead = false;
  #stopped = false;
  #nextRun = 1;
  readonly #runs = new Map<number, PendingRun>();
  readonly #queue: ToHookWorker[] = [];
  #restartTimer: NodeJS.Timeout | undefined;
  #watchTimer: NodeJS.Timeout | undefined;
  #awaitingPong = false;
  #terminating = false;
  /** when the current worker reported its handler loaded; 0 while loading */
  #readyAt = 0;

  constructor(spec: GatewayHookSpec, options: HookThreadOptions) {
    this.name = spec.name;
    this.#spec = spec;
    this.#o = { graceMs: 5_000, backoffMs: 1_000, maxBackoffMs: 60_000, maxHeapMb: 256, ...options };
  }

  /** Starts the worker (the handler loads there; runs posted before it is ready wait for it). */
  start(): void {
    if (this.#stopped || this.#dead) return;
    const data: HookWorkerData = {
      entry: ENTRY,
      jiti: createRequire(import.meta.url).resolve('jiti'),
      name: this.name,
      handlerFile: this.#spec.handlerFile,
      home: this.#o.api.home,
      aliases: this.#o.aliases,
    };
    const worker = new Worker(BOOTSTRAP, {
      eval: true,
      workerData: data,
      // the worker must not inherit the CLI's loader flags
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: this.#o.maxHeapMb },
      name: `gateway hook ${this.name}`,
    });
    this.#worker = worker;
    this.#startedAt = Date.now();
    this.#terminating = false;
    this.#awaitingPong = false;
    this.#readyAt = 0;
    worker.unref();
    worker.on('message', (m: FromHookWorker) => this.#onMessage(m));
    worker.on('error', (err) => {
      const what = (err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'ran out of memory' : 'crashed';
      this.#o.logger.error({ err, hook: this.name }, `gateway hook ${this.name} ${what}: ${err.message}`);
    });
    worker.on('exit', (code) => this.#onExit(worker, code));
    for (const message of this.#queue.splice(0)) worker.postMessage(message);
  }

  /** Runs the handler on one event; resolves when it finished, rejects with its error. */
  run(event: string, context: Record<string, unknown>): Promise<void> {
    if (this.#dead || this.#stopped) return Promise.resolve();
    const id = this.#nextRun++;
    const message: ToHookWorker = { type: 'run', id, event, context: cloneable(context) };
    return new Promise<void>((resolve, reject) => {
      if (!this.#worker && this.#queue.length >= QUEUE_LIMIT) {
        reject(new Error(`its worker is restarting and ${QUEUE_LIMIT} events already wait; ${event} dropped`));
        return;
      }
      this.#runs.set(id, { resolve, reject, started: Date.now() });
      if (this.#worker) this.#worker.postMessage(message);
      else this.#queue.push(message);
      this.#watch();
    });
  }

  /** Stops the worker for good (gateway shutdown). */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#restartTimer);
    clearInterval(this.#watchTimer);
    const worker = this.#worker;
    this.#worker = null;
    this.#failRuns('the gateway stopped');
    if (worker) await worker.terminate();
  }

  /** While a run is older than the timeout, the worker must answer a ping within the grace period. */
  #watch(): void {
    if (this.#watchTimer) return;
    const tick = Math.min(this.#o.timeoutMs, this.#o.graceMs);
    this.#watchTimer = setInterval(() => this.#check(), tick);
    this.#watchTimer.unref();
  }

  #check(): void {
    if (this.#runs.size === 0) {
      clearInterval(this.#watchTimer);
      this.#watchTimer = undefined;
      return;
    }
    const worker = this.#worker;
    if (!worker || this.#terminating) return;
    const now = Date.now();
    if (this.#readyAt === 0) {
      // still importing the handler (jiti's transform is synchronous): a module that never finishes is stuck
      const limit = Math.max(this.#o.timeoutMs, LOAD_ALLOWANCE_MS) + this.#o.graceMs;
      if (now - this.#startedAt > limit) this.#terminate(worker, `did not load its handler within ${limit} ms`);
      return;
    }
    // runs posted while the handler loaded count from when it was ready
    const oldest = Math.max(this.#readyAt, Math.min(...[...this.#runs.values()].map((r) => r.started)));
    if (now - oldest < this.#o.timeoutMs || this.#awaitingPong) return;
    this.#awaitingPong = true;
    worker.postMessage({ type: 'ping' } satisfies ToHookWorker);
    setTimeout(() => {
      if (!this.#awaitingPong || this.#worker !== worker) return;
      const busyS = Math.round((Date.now() - oldest) / 1000);
      this.#terminate(
        worker,
        `blocks its worker thread (busy for over ${busyS} s, no answer within ${this.#o.graceMs} ms)`,
      );
    }, this.#o.graceMs).unref();
  }

  #terminate(worker: Worker, why: string): void {
    this.#terminating = true;
    this.#o.logger.error({ hook: this.name }, `gateway hook ${this.name} ${why}; terminated`);
    void worker.terminate();
  }

  #onMessage(m: FromHookWorker): void {
    switch (m.type) {
      case 'pong':
        this.#awaitingPong = false;
        return;
      case 'ready':
        this.#readyAt = Date.now();
        this.#o.logger.debug({ hook: this.name }, `gateway hook ${this.name} ready in its worker thread`);
        return;
      case 'load-failed':
        this.#dead = true;
        this.#o.logger.warn({ hook: this.name }, `gateway hook ${this.name} skipped: ${m.reason}`);
        this.#failRuns(m.reason);
        void this.#worker?.terminate();
        return;
      case 'done': {
        const run = this.#runs.get(m.id);
        this.#runs.delete(m.id);
        if (m.error === undefined) run?.resolve();
        else run?.reject(new Error(m.error));
        return;
      }
      case 'log': {
        const logger = Object.keys(m.bindings).length > 0 ? this.#o.api.logger.child(m.bindings) : this.#o.api.logger;
        const log = logger[m.level].bind(logger);
        if (m.obj === undefined) log(m.msg ?? '');
        else log((m.obj ?? {}) as object, m.msg);
        return;
      }
      case 'call':
        void this.#call(m.id, m.method, m.args);
        return;
    }
  }

  async #call(id: number, method: 'send' | 'runAgent', args: unknown[]): Promise<void> {
    const worker = this.#worker;
    let reply: ToHookWorker;
    try {
      const result =
        method === 'send'
          ? await this.#o.api.send(String(args[0]), String(args[1]))
          : await this.#o.api.runAgent(String(args[0]), (args[1] ?? {}) as { maxIterations?: number });
      reply = { type: 'reply', id, ok: true, result: cloneable(result) };
    } catch (err) {
      reply = { type: 'reply', id, ok: false, error: err instanceof Error ? err.message : String(err) };
    }
    // the worker that asked may have been restarted meanwhile: the answer is dropped with it
    if (this.#worker === worker) worker?.postMessage(reply);
  }

  #failRuns(reason: string): void {
    for (const run of this.#runs.values()) run.reject(new Error(reason));
    this.#runs.clear();
    this.#queue.length = 0;
  }

  #onExit(worker: Worker, code: number): void {
    if (this.#worker !== worker) return;
    this.#worker = null;
    if (this.#stopped || this.#dead) return;
    const uptime = Date.now() - this.#startedAt;
    if (uptime > this.#o.maxBackoffMs) this.#crashes = 0;
    this.#crashes += 1;
    const delay = Math.min(this.#o.backoffMs * 2 ** (this.#crashes - 1), this.#o.maxBackoffMs);
    const why = this.#terminating ? 'was terminated' : `exited with code ${code}`;
    this.#failRuns(`its worker thread ${why}`);
    this.#o.logger.warn(
      { hook: this.name, code, restartInMs: delay },
      `gateway hook ${this.name} worker thread ${why}; restarting in ${delay} ms`,
    );
    this.#restartTimer = setTimeout(() => this.start(), delay);
    this.#restartTimer.unref();
  }
}
