/** Retries a setup step with backoff until it succeeds or the signal aborts. */
import { backoffDelayMs, type Sleep, type StatusTracker } from '@hermes/plugin-sdk';
import { describeError, retryAfterMs } from './error-text.js';

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
