/** Reconnect pacing: exponential backoff with jitter, and a sleep that an AbortSignal cuts short. */

/** Where the pacing starts and where it stops growing. */
export interface BackoffPolicy {
  /** the ceiling of the first retry's delay */
  baseMs: number;
  /** the largest ceiling any retry reaches */
  capMs: number;
}

/** 1 s doubling to 30 s: what the bundled platforms use unless they say otherwise. */
export const DEFAULT_BACKOFF: Readonly<BackoffPolicy> = Object.freeze({ baseMs: 1_000, capMs: 30_000 });

/** Sleeps `ms`, resolving early (never rejecting) when `signal` aborts. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

/** The delay before retry number `attempt` (1-based): base·2^(attempt-1), capped, then jittered to 50–100 %. */
export function backoffDelayMs(
  attempt: number,
  random: () => number = Math.random,
  policy: Readonly<BackoffPolicy> = DEFAULT_BACKOFF,
): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/** The default Sleep: a timer, cleared when the signal aborts. */
export const abortableSleep: Sleep = (ms, signal) =>
  new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
