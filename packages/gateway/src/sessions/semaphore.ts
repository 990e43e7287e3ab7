/** A counting semaphore: at most `limit` holders at a time, FIFO waiters. */
export class Semaphore {
  #free: number;
  readonly #waiters: (() => void)[] = [];

  constructor(limit: number) {
    this.#free = limit;
  }

  /** A release function when a slot is free now (nothing to await), else null: `acquire()` waits for one. */
  tryAcquire(): (() => void) | null {
    if (this.#free <= 0) return null;
    this.#free--;
    return this.#release();
  }

  /** Resolves with a release function once a slot is free. */
  async acquire(): Promise<() => void> {
    if (this.#free > 0) this.#free--;
    else await new Promise<void>((resolve) => this.#waiters.push(resolve));
    return this.#release();
  }

  #release(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiters.shift();
      if (next) next();
      else this.#free++;
    };
  }
}
