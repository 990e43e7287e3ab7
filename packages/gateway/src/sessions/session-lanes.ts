/**
 * One run per session at a time, sessions in parallel up to a limit. A message for a busy
 * session is handled per `display.busy_input_mode`: interrupt (abort the run, then answer the new
 * message), queue (answer it after), or steer (hand it to the running turn before its next
 * model step; if the turn ends first, it runs as the next turn).
 */
import { Semaphore } from './semaphore.js';

export type BusyMode = 'interrupt' | 'queue' | 'steer';

export interface RunControl {
  signal: AbortSignal;
  /** steering messages that arrived since the last call */
  takeSteering(): string[];
  /**
   * The turn has its answer (only delivery is left): from now on a new message for the session is
   * queued behind it, never aborting it.
   */
  settle(): void;
}

export type LaneRunner<T> = (item: T, control: RunControl) => Promise<void>;

interface Lane<T> {
  queue: T[];
  running: { controller: AbortController; steering: string[]; item: T; settled: boolean } | null;
}

export type SubmitOutcome = 'started' | 'queued' | 'interrupting' | 'steered';

/** Turns holding a run slot, and messages waiting: behind their session's turn or for a free slot. */
export interface LaneStats {
  running: number;
  queued: number;
}

export class SessionLanes<T> {
  readonly #lanes = new Map<string, Lane<T>>();
  readonly #semaphore: Semaphore;
  readonly #runner: LaneRunner<T>;
  readonly #idle = new Set<() => void>();
  readonly #withText: (item: T, text: string) => T;
  readonly #textOf: (item: T) => string;
  readonly #onDrop: ((items: T[]) => void) | undefined;
  /** runs holding a semaphore slot (a lane's turn may wait for one) */
  #holding = 0;

  constructor(options: {
    maxConcurrent: number;
    runner: LaneRunner<T>;
    /** the item with another text (steering texts that arrived too late run as the next turn) */
    withText: (item: T, text: string) => T;
    /** the text an item hands a running turn when it steers */
    textOf: (item: T) => string;
    /** queued messages that stop() dropped (`/stop`, `/new`): never run, so the owner must finish them */
    onDrop?: (items: T[]) => void;
  }) {
    this.#semaphore = new Semaphore(options.maxConcurrent);
    this.#onDrop = options.onDrop;
    this.#runner = options.runner;
    this.#withText = options.withText;
    this.#textOf = options.textOf;
  }

  /** Hands a message to its session's lane. */
  submit(key: string, item: T, mode: BusyMode): SubmitOutcome {
    let lane = this.#lanes.get(key);
    if (!lane) {
      lane = { queue: [], running: null };
      this.#lanes.set(key, lane);
    }
    if (!lane.running) {
      lane.queue.push(item);
      void this.#pump(key, lane);
      return 'started';
    }
    if (mode === 'steer') {
      lane.running.steering.push(this.#textOf(item));
      return 'steered';
    }
    lane.queue.push(item);
    if (mode === 'interrupt' && !lane.running.settled) {
      lane.running.controller.abort(new Error('interrupted by a new message'));
      return 'interrupting';
    }
    return 'queued';
  }

  /** Cancels the session's running turn (`/stop`); true when one was running. */
  stop(key: string): boolean {
    const lane = this.#lanes.get(key);
    if (!lane?.running) return false;
    const dropped = lane.queue.splice(0);
    lane.running.controller.abort(new Error('stopped'));
    if (dropped.length > 0) this.#onDrop?.(dropped);
    return true;
  }

  /** Interrupts the session's running turn, keeping what waits behind it; true when one was running. */
  interrupt(key: string): boolean {
    const running = this.#lanes.get(key)?.running;
    if (!running || running.settled) return false;
    running.controller.abort(new Error('interrupted by a new message'));
    return true;
  }

  /** Whether the session has a turn running. */
  busy(key: string): boolean {
    return Boolean(this.#lanes.get(key)?.running);
  }

  /** Number of sessions with a running turn. */
  activeCount(): number {
    let n = 0;
    for (const lane of this.#lanes.values()) if (lane.running) n++;
    return n;
  }

  /** Running and waiting counts, for the metrics (walks the lanes: call it per scrape, not per message). */
  stats(): LaneStats {
    let queued = 0;
    let started = 0;
    for (const lane of this.#lanes.values()) {
      queued += lane.queue.length;
      if (lane.running) started++;
    }
    return { running: this.#holding, queued: queued + started - this.#holding };
  }

  /**
   * Aborts every running turn and drops queued messages (chat messages stay in the inbox for
   * recovery); returns the dropped ones.
   */
  abortAll(): T[] {
    const dropped: T[] = [];
    for (const lane of this.#lanes.values()) {
      dropped.push(...lane.queue.splice(0));
      lane.running?.controller.abort(new Error('gateway stopping'));
    }
    return dropped;
  }

  /** Resolves when no lane is running or queued. */
  idle(): Promise<void> {
    if (this.#isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.#idle.add(resolve));
  }

  #isIdle(): boolean {
    for (const lane of this.#lanes.values()) if (lane.running || lane.queue.length > 0) return false;
    return true;
  }

  async #pump(key: string, lane: Lane<T>): Promise<void> {
    while (lane.queue.length > 0) {
      const item = lane.queue.shift() as T;
      const running = { controller: new AbortController(), steering: [] as string[], item, settled: false };
      lane.running = running;
      // a free slot (no waiters then) is taken at once: the turn starts without a tick in between
      const release = this.#semaphore.tryAcquire() ?? (await this.#semaphore.acquire());
      this.#holding++;
      try {
        await this.#runner(item, {
          signal: running.controller.signal,
          takeSteering: () => running.steering.splice(0),
          settle: () => {
            running.settled = true;
          },
        });
      } catch {
        // the runner reports its own failures; a lane never dies
      } finally {
        this.#holding--;
        release();
        lane.running = null;
      }
      if (running.steering.length > 0) lane.queue.unshift(this.#withText(item, running.steering.join('\n\n')));
    }
    if (this.#lanes.get(key) === lane && !lane.running) this.#lanes.delete(key);
    if (this.#isIdle()) {
      for (const resolve of this.#idle) resolve();
      this.#idle.clear();
    }
  }
}

/**
 * The busy mode for a chat message: steering carries text only, so a message with files waits for
 * its own turn (queued) instead.
 */
export function busyModeFor(mode: BusyMode, event: { attachments?: readonly unknown[] | undefined }): BusyMode {
  return mode === 'steer' && (event.attachments?.length ?? 0) > 0 ? 'queue' : mode;
}
