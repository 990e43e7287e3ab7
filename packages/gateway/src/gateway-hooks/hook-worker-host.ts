/**
 * The gateway hooks' worker thread, seen from the gateway. Runs are posted to the worker and
 * resolve when the handler finishes. A worker that dies (process.exit, an uncaught error, a
 * rejection nobody handled, out of memory) is logged with the hook it is traced to and restarted
 * with backoff; one that stops answering while a run is overdue (a busy loop) is terminated and
 * restarted. A hook traced to 5 faults in 10 minutes is turned off. Nothing here throws into the
 * gateway. The worker (an isolate of its own: 8 to 18 MB of RSS) starts with the first run, or
 * with start(); a gateway whose hooks' events have not fired yet holds none.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { GatewayHookApi, Logger } from '@hermes/protocol';
import type { GatewayHookSpec } from './discover.js';
import { DEFAULT_FAULT_LIMIT, FaultCounter, type FaultLimit } from './hook-faults.js';
import { cloneable, type FromHookWorker, type HookWorkerData, type ToHookWorker } from './worker-protocol.js';

export interface HookWorkerOptions {
  /** each hook's API (main-thread side): its logger, send and runAgent */
  apiFor(hook: string): GatewayHookApi;
  home: string;
  /** approved sha256 per HERMES_HOME file (BOOT.md), for `hermes.trustedFile` in the worker */
  trusted?: Record<string, string>;
  logger: Logger;
  aliases: Record<string, string>;
  /** a run older than this makes the gateway check that the worker still answers (gateway.hook_timeout_s) */
  timeoutMs: number;
  /** how long an overdue worker has to answer a ping before it is terminated (default: pingGrace) */
  graceMs?: number;
  /** first restart delay; doubles per crash in a row, up to maxBackoffMs */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** heap limit of the worker (old generation) */
  maxHeapMb?: number;
  /** the worker's young generation (default YOUNG_GENERATION_MB) */
  youngGenerationMb?: number;
  faults?: FaultLimit;
}

const SELF = fileURLToPath(import.meta.url);
/**
 * The worker module, next to this file: built `.js`, or the `.ts` source when running from sources;
 * inside the CLI's bundle (apps/hermes/bundle.mjs), where this code sits in a chunk, the bundle's own
 * `hook-worker.js` entry beside it.
 */
const ENTRY = /hook-worker-host\.(ts|js)$/.test(SELF)
  ? SELF.replace(/hook-worker-host\.(ts|js)$/, 'hook-worker.$1')
  : join(dirname(SELF), 'hook-worker.js');
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
const QUEUE_LIMIT = 500;
/**
 * The worker's young generation, MB: V8 grows a new isolate's to 16 MB semi-spaces while the
 * handlers load (a few MB of RSS kept until the memory reducer runs); handlers run once per event,
 * so a small one costs no CPU per message (the main thread's is V8's default).
 */
export const YOUNG_GENERATION_MB = 2;
/**
 * An overdue worker's time to answer a ping: the hook timeout itself, within 1 to 5 s. A free event
 * loop answers in a millisecond; one that misses a second is stuck in synchronous work, and an
 * operator who set a short hook timeout wants a stuck worker back soon.
 */
export const pingGrace = (timeoutMs: number): number => Math.min(5_000, Math.max(1_000, timeoutMs));
/** the handlers get at least this long to import before the worker counts as stuck */
const LOAD_ALLOWANCE_MS = 30_000;

interface PendingRun {
  hook: string;
  /** posted to the current worker (false: queued for the next one) */
  posted: boolean;
  resolve(): void;
  reject(err: Error): void;
  started: number;
}

export class GatewayHookWorker {
  readonly #specs: Map<string, GatewayHookSpec>;
  readonly #o: Required<Omit<HookWorkerOptions, 'faults'>>;
  readonly #faults: FaultCounter;
  /** hooks left out: failed to load, or turned off after repeated faults */
  readonly #off = new Set<string>();
  #worker: Worker | null = null;
  #startedAt = 0;
  #readyAt = 0;
  #crashes = 0;
  #stopped = false;
  /** a worker was started once (the first run starts it; a crashed one is restarted by the backoff timer) */
  #begun = false;
  #nextRun = 1;
  readonly #runs = new Map<number, PendingRun>();
  readonly #queue: ToHookWorker[] = [];
  #restartTimer: NodeJS.Timeout | undefined;
  #watchTimer: NodeJS.Timeout | undefined;
  #awaitingPong = false;
  /** why the current worker is going away, and the hooks it is traced to */
  #fault: { why: string; hooks: string[] } | null = null;
  /** the hooks a process.exit in the current worker was traced to */
  #exitFrom: string[] | null = null;

  constructor(specs: readonly GatewayHookSpec[], options: HookWorkerOptions) {
    this.#specs = new Map(specs.map((s) => [s.name, s]));
    const { faults, ...rest } = options;
    this.#o = {
      graceMs: pingGrace(rest.timeoutMs),
      backoffMs: 1_000,
      maxBackoffMs: 60_000,
      maxHeapMb: 256,
      youngGenerationMb: YOUNG_GENERATION_MB,
      trusted: {},
      ...rest,
    };
    this.#faults = new FaultCounter(faults ?? DEFAULT_FAULT_LIMIT);
  }

  /** A worker thread exists (started by start() or the first run, not stopped). */
  get running(): boolean {
    return this.#worker !== null;
  }

  /** The hooks that run (not failed to load, not turned off). */
  get active(): string[] {
    return [...this.#specs.keys()].filter((name) => !this.#off.has(name));
  }

  /**
   * Starts the worker (the handlers load there; runs posted before they are ready wait for them).
   * Optional: the first run starts it too.
   */
  start(): void {
    const hooks = this.active.map((name) => ({ name, handlerFile: this.#specs.get(name)?.handlerFile ?? '' }));
    if (this.#stopped || hooks.length === 0) return;
    this.#begun = true;
    const data: HookWorkerData = {
      entry: ENTRY,
      jiti: createRequire(import.meta.url).resolve('jiti'),
      hooks,
      home: this.#o.home,
      trusted: this.#o.trusted,
      aliases: this.#o.aliases,
    };
    const worker = new Worker(BOOTSTRAP, {
      eval: true,
      workerData: data,
      // the worker must not inherit the CLI's loader flags
      execArgv: [],
      resourceLimits: {
        maxOldGenerationSizeMb: this.#o.maxHeapMb,
        maxYoungGenerationSizeMb: this.#o.youngGenerationMb,
      },
      name: 'gateway hooks',
    });
    this.#worker = worker;
    this.#startedAt = Date.now();
    this.#readyAt = 0;
    this.#awaitingPong = false;
    this.#fault = null;
    this.#exitFrom = null;
    worker.unref();
    worker.on('message', (m: FromHookWorker) => this.#onMessage(m));
    worker.on('error', (err) => this.#onError(worker, err));
    worker.on('exit', (code) => this.#onExit(worker, code));
    for (const message of this.#queue.splice(0)) {
      if (message.type === 'run') {
        const run = this.#runs.get(message.id);
        if (run) run.posted = true;
      }
      worker.postMessage(message);
    }
  }

  /** Runs one hook's handler on one event; resolves when it finished, rejects with its error. */
  run(hook: string, event: string, context: Record<string, unknown>): Promise<void> {
    if (this.#stopped || this.#off.has(hook)) return Promise.resolve();
    if (!this.#begun) this.start();
    const id = this.#nextRun++;
    const message: ToHookWorker = { type: 'run', id, hook, event, context: cloneable(context) };
    return new Promise<void>((resolve, reject) => {
      // a worker that crashed is going away: the run waits for the next one instead of dying with it
      const live = this.#worker !== null && this.#fault === null;
      if (!live && this.#queue.length >= QUEUE_LIMIT) {
        reject(new Error(`the hooks' worker thread is restarting and ${QUEUE_LIMIT} events wait; ${event} dropped`));
        return;
      }
      this.#runs.set(id, { hook, posted: live, resolve, reject, started: Date.now() });
      if (live) this.#worker?.postMessage(message);
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

  /** While runs are pending, checks every tick that none is overdue on a worker that no longer answers. */
  #watch(): void {
    if (this.#watchTimer) return;
    this.#watchTimer = setInterval(() => this.#check(), Math.min(this.#o.timeoutMs, this.#o.graceMs));
    this.#watchTimer.unref();
  }

  #check(): void {
    if (this.#runs.size === 0) {
      clearInterval(this.#watchTimer);
      this.#watchTimer = undefined;
      return;
    }
    const worker = this.#worker;
    if (!worker || this.#fault) return;
    const now = Date.now();
    if (this.#readyAt === 0) {
      // still importing the handlers (jiti's transform is synchronous): a module that never finishes is stuck
      const limit = Math.max(this.#o.timeoutMs, LOAD_ALLOWANCE_MS) + this.#o.graceMs;
      if (now - this.#startedAt > limit) this.#terminate(worker, `did not load within ${limit} ms`, this.active);
      return;
    }
    // runs posted while the handlers loaded count from when they were ready
    const overdue = [...this.#runs.values()].filter(
      (r) => now - Math.max(r.started, this.#readyAt) >= this.#o.timeoutMs,
    );
    if (overdue.length === 0 || this.#awaitingPong) return;
    this.#awaitingPong = true;
    worker.postMessage({ type: 'ping' } satisfies ToHookWorker);
    setTimeout(() => {
      if (!this.#awaitingPong || this.#worker !== worker || this.#fault) return;
      const busyS = Math.round(
        (Date.now() - Math.max(this.#readyAt, Math.min(...overdue.map((r) => r.started)))) / 1000,
      );
      const hooks = [...new Set(overdue.map((r) => r.hook))];
      this.#terminate(
        worker,
        `blocks the hooks' worker thread (busy for over ${busyS} s, no answer within ${this.#o.graceMs} ms)`,
        hooks,
      );
    }, this.#o.graceMs).unref();
  }

  #terminate(worker: Worker, why: string, hooks: string[]): void {
    this.#fault = { why: 'was terminated', hooks };
    this.#o.logger.error({ hooks }, `gateway hook ${label(hooks)} ${why}; terminated`);
    void worker.terminate();
  }

  /** The hooks an error is traced to: a handler's folder in its stack, else the hooks running. */
  #culprits(err: unknown): string[] {
    const stack = err instanceof Error ? (err.stack ?? '') : '';
    const inStack = [...this.#specs.values()].filter((s) => stack.includes(dirname(s.handlerFile))).map((s) => s.name);
    if (inStack.length > 0) return inStack;
    return [...new Set([...this.#runs.values()].filter((r) => r.posted).map((r) => r.hook))];
  }

  #onError(worker: Worker, err: Error): void {
    if (this.#worker !== worker) return;
    const hooks = this.#culprits(err);
    const oom = (err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
    this.#fault ??= { why: oom ? 'ran out of memory' : 'crashed', hooks };
    this.#o.logger.error(
      { err, hooks },
      `gateway hook ${label(hooks)} ${oom ? 'ran out of memory' : 'crashed'}: ${err.message}`,
    );
  }

  #onMessage(m: FromHookWorker): void {
    switch (m.type) {
      case 'pong':
        this.#awaitingPong = false;
        return;
      case 'exiting': {
        const where = new Error('process.exit');
        where.stack = m.stack;
        this.#exitFrom = this.#culprits(where);
        return;
      }
      case 'ready':
        this.#readyAt = Date.now();
        return;
      case 'load-failed':
        this.#off.add(m.hook);
        this.#o.logger.warn({ hook: m.hook }, `gateway hook ${m.hook} skipped: ${m.reason}`);
        return;
      case 'done': {
        const run = this.#runs.get(m.id);
        this.#runs.delete(m.id);
        if (m.error === undefined) run?.resolve();
        else run?.reject(new Error(m.error));
        return;
      }
      case 'log': {
        const base = this.#o.apiFor(m.hook).logger;
        const logger = Object.keys(m.bindings).length > 0 ? base.child(m.bindings) : base;
        const log = logger[m.level].bind(logger);
        if (m.obj === undefined) log(m.msg ?? '');
        else log((m.obj ?? {}) as object, m.msg);
        return;
      }
      case 'call':
        void this.#call(m);
        return;
    }
  }

  async #call(m: Extract<FromHookWorker, { type: 'call' }>): Promise<void> {
    const worker = this.#worker;
    const api = this.#o.apiFor(m.hook);
    let reply: ToHookWorker;
    try {
      const result =
        m.method === 'send'
          ? await api.send(String(m.args[0]), String(m.args[1]))
          : await api.runAgent(String(m.args[0]), (m.args[1] ?? {}) as { maxIterations?: number });
      reply = { type: 'reply', id: m.id, ok: true, result: cloneable(result) };
    } catch (err) {
      reply = { type: 'reply', id: m.id, ok: false, error: err instanceof Error ? err.message : String(err) };
    }
    // the worker that asked may have been restarted meanwhile: the answer goes with it
    if (this.#worker === worker) worker?.postMessage(reply);
  }

  /** Fails the runs the worker had (all of them, queued too, when the gateway stops). */
  #failRuns(reason: string, queuedToo = true): void {
    for (const [id, run] of this.#runs) {
      if (!run.posted && !queuedToo) continue;
      run.reject(new Error(reason));
      this.#runs.delete(id);
    }
    if (queuedToo) this.#queue.length = 0;
  }

  /** Runs queued for a hook that is now off end as a run of an off hook does: quietly, not run. */
  #dropQueuedOff(): void {
    const kept = this.#queue.filter((m) => m.type !== 'run' || !this.#off.has(m.hook));
    for (const m of this.#queue) {
      if (m.type !== 'run' || !this.#off.has(m.hook)) continue;
      this.#runs.get(m.id)?.resolve();
      this.#runs.delete(m.id);
    }
    this.#queue.splice(0, this.#queue.length, ...kept);
  }

  #onExit(worker: Worker, code: number): void {
    if (this.#worker !== worker) return;
    this.#worker = null;
    if (this.#stopped) return;
    const fault = this.#fault ?? { why: `exited with code ${code}`, hooks: this.#exitFrom ?? this.#culprits(null) };
    // runs queued after the fault was seen go to the next worker
    this.#failRuns(`the hooks' worker thread ${fault.why}`, false);
    for (const hook of fault.hooks) {
      if (!this.#faults.record(hook) || this.#off.has(hook)) continue;
      this.#off.add(hook);
      this.#o.logger.error({ hook }, `gateway hook ${hook} turned off: it stopped the hooks' worker thread too often`);
    }
    this.#dropQueuedOff();
    if (Date.now() - this.#startedAt > this.#o.maxBackoffMs) this.#crashes = 0;
    this.#crashes += 1;
    const delay = Math.min(this.#o.backoffMs * 2 ** (this.#crashes - 1), this.#o.maxBackoffMs);
    this.#o.logger.warn(
      { hooks: fault.hooks, code, restartInMs: delay },
      `gateway hook ${label(fault.hooks)} worker thread ${fault.why}; restarting in ${delay} ms`,
    );
    this.#restartTimer = setTimeout(() => this.start(), delay);
    this.#restartTimer.unref();
  }
}

function label(hooks: readonly string[]): string {
  return hooks.length > 0 ? hooks.join(', ') : '(none running; cause unknown)';
}
