/**
 * Where start-up time goes: `mark(name)` closes the phase that began at the previous mark (the
 * first one began when the process did), so the phases add up to the time since spawn. The gateway
 * logs them with "gateway listening", where `npm run bench -- footprint` reads them.
 */
export class StartupPhases {
  readonly #phases: Array<[string, number]> = [];
  #last = 0;

  /** Ends the current phase under `name`; returns its duration in ms. */
  mark(name: string): number {
    const now = performance.now();
    const ms = now - this.#last;
    this.#last = now;
    this.#phases.push([name, Math.round(ms)]);
    return ms;
  }

  /** The phases in order, in whole ms, and `total` (ms since the process started). */
  summary(): Record<string, number> {
    return { ...Object.fromEntries(this.#phases), total: Math.round(this.#last) };
  }
}
