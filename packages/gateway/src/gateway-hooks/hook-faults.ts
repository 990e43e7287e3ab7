/** Counts faults per gateway hook in a sliding window; past the limit the hook is turned off. */

export interface FaultLimit {
  /** faults within the window that turn a hook off (default 5) */
  limit: number;
  windowMs: number;
}

export const DEFAULT_FAULT_LIMIT: FaultLimit = { limit: 5, windowMs: 10 * 60_000 };

export class FaultCounter {
  readonly #times = new Map<string, number[]>();
  readonly #limit: FaultLimit;
  readonly #now: () => number;

  constructor(limit: FaultLimit = DEFAULT_FAULT_LIMIT, now: () => number = Date.now) {
    this.#limit = limit;
    this.#now = now;
  }

  /** Records one fault of `name`; true when it reached the limit within the window. */
  record(name: string): boolean {
    const now = this.#now();
    const recent = (this.#times.get(name) ?? []).filter((t) => now - t < this.#limit.windowMs);
    recent.push(now);
    this.#times.set(name, recent);
    return recent.length >= this.#limit.limit;
  }
}
