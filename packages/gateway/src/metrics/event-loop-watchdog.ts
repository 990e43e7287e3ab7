/**
 * Watches the main thread's event loop with a timer drift check: a timer due every `intervalMs`
 * that fires late by more than `thresholdMs` means the loop was blocked that long (synchronous
 * work in a plugin, a hook, a huge JSON parse) and nothing was answered meanwhile. Each stall is
 * logged with its duration and counted; `/health` reports `degraded` while one was seen in the
 * last minute, and `/metrics` exposes the count and the longest delay.
 */
import type { Logger } from '@hermes/protocol';

export interface EventLoopWatchdogOptions {
  /** a delay above this is a stall (default 1000 ms) */
  thresholdMs?: number;
  /** how often the timer is due (default 100 ms) */
  intervalMs?: number;
  /** how long a stall keeps /health degraded, and the span of `maxDelayMs` (default 60 s) */
  windowMs?: number;
  logger?: Logger;
  /** told of each stall (metrics) */
  onStall?: (delayMs: number) => void;
  /** monotonic milliseconds (default performance.now) */
  now?: () => number;
}

export interface EventLoopStatus {
  /** stalls seen within the window (the last minute) */
  stalls_last_minute: number;
  /** the longest delay of the event loop within the window, in ms */
  max_delay_ms: number;
  /** stalls since start */
  stalls_total: number;
}

/** Delays shorter than this are not kept for max_delay_ms (timer jitter). */
const KEEP_DELAY_MS = 10;

export class EventLoopWatchdog {
  readonly thresholdMs: number;
  readonly intervalMs: number;
  readonly #windowMs: number;
  readonly #logger: Logger | undefined;
  readonly #onStall: ((delayMs: number) => void) | undefined;
  readonly #now: () => number;
  #timer: NodeJS.Timeout | undefined;
  #last = 0;
  #stallsTotal = 0;
  /** recent delays worth keeping, oldest first */
  readonly #delays: { at: number; ms: number }[] = [];

  constructor(options: EventLoopWatchdogOptions = {}) {
    this.thresholdMs = options.thresholdMs ?? 1_000;
    this.intervalMs = options.intervalMs ?? 100;
    this.#windowMs = options.windowMs ?? 60_000;
    this.#logger = options.logger;
    this.#onStall = options.onStall;
    this.#now = options.now ?? (() => performance.now());
  }

  start(): void {
    if (this.#timer) return;
    this.#last = this.#now();
    this.#timer = setInterval(() => this.tick(), this.intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** One timer firing: how late it is against `intervalMs` is the loop's delay. */
  tick(): void {
    const now = this.#now();
    const delay = Math.max(0, now - this.#last - this.intervalMs);
    this.#last = now;
    this.record(delay, now);
  }

  /** Records one measured delay at `at` (monotonic ms). */
  record(delayMs: number, at: number = this.#now()): void {
    this.#prune(at);
    if (delayMs >= KEEP_DELAY_MS) this.#delays.push({ at, ms: delayMs });
    if (delayMs <= this.thresholdMs) return;
    this.#stallsTotal += 1;
    const ms = Math.round(delayMs);
    this.#logger?.warn(
      { eventLoopDelayMs: ms, thresholdMs: this.thresholdMs },
      `event loop blocked for ${ms} ms (over ${this.thresholdMs} ms): nothing was answered meanwhile`,
    );
    this.#onStall?.(delayMs);
  }

  status(): EventLoopStatus {
    this.#prune(this.#now());
    let stalls = 0;
    let max = 0;
    for (const d of this.#delays) {
      if (d.ms > this.thresholdMs) stalls += 1;
      if (d.ms > max) max = d.ms;
    }
    return { stalls_last_minute: stalls, max_delay_ms: Math.round(max), stalls_total: this.#stallsTotal };
  }

  #prune(now: number): void {
    while (this.#delays.length > 0 && now - (this.#delays[0]?.at ?? now) > this.#windowMs) this.#delays.shift();
  }
}
