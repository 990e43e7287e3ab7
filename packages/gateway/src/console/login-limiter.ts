/**
 * Wrong console logins per client address: LOGIN_MAX_FAILURES in LOGIN_WINDOW_MS, then 429 until
 * the window passes (a token cannot be guessed at request speed). Bounded: the oldest address goes.
 */
export const LOGIN_MAX_FAILURES = 10;
export const LOGIN_WINDOW_MS = 60_000;
const MAX_ADDRESSES = 10_000;

export class LoginLimiter {
  readonly #failures = new Map<string, { count: number; resetAt: number }>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** When the address may try again (ms since the epoch), or null when it may now. */
  blockedUntil(address: string): number | null {
    const entry = this.#failures.get(address);
    if (entry === undefined) return null;
    if (entry.resetAt <= this.#now()) {
      this.#failures.delete(address);
      return null;
    }
    return entry.count >= LOGIN_MAX_FAILURES ? entry.resetAt : null;
  }

  failed(address: string): void {
    const now = this.#now();
    const entry = this.#failures.get(address);
    if (entry === undefined || entry.resetAt <= now) {
      if (this.#failures.size >= MAX_ADDRESSES) {
        const oldest = this.#failures.keys().next().value;
        if (oldest !== undefined) this.#failures.delete(oldest);
      }
      this.#failures.set(address, { count: 1, resetAt: now + LOGIN_WINDOW_MS });
    } else entry.count += 1;
  }
}
