/** Retries a setup step with backoff until it succeeds or the signal aborts. */
import { backoffDelayMs, type Sleep } from './backoff.js';
import { describeError, retryAfterMs } from './error-text.js';
import type { StatusTracker } from './status-tracker.js';

export interface RetryOptions {
  status: StatusTracker;
  sleep: Sleep;
  random: () => number;
  signal: AbortSignal;
}

/** Runs `step` until it resolves (true) or the signal aborts (false); the status shows 'error' between tries. */
export async function retryUntilDone(step: () => Promise<void>, options: RetryOptions): Promise<boolean> {
  for (let attempt = 1; !options.signal.aborted; attempt += 1) {
    try {
      await step();
      return true;
    } catch (error) {
      if (options.signal.aborted) return false;
      options.status.set('error', describeError(error));
      await options.sleep(retryAfterMs(error) ?? backoffDelayMs(attempt, options.random), options.signal);
    }
  }
  return false;
}
