/**
 * Runs the work for a key once: a second call while it runs waits for the same outcome, a call after
 * it succeeded is a no-op, a call after it failed runs it again. Used on message ids, so Slack's
 * retries and the `message` + `app_mention` pair of one message are handed to the sink once.
 */

export const ONCE_KEYS_MAX = 2_000;

export interface OncePerKey {
  run(key: string, work: () => Promise<void>): Promise<void>;
}

/** Creates the tracker; it remembers at most `max` keys (the oldest are forgotten first). */
export function createOncePerKey(max: number = ONCE_KEYS_MAX): OncePerKey {
  const seen = new Map<string, Promise<void>>();
  return {
    run(key, work) {
      const known = seen.get(key);
      if (known !== undefined) return known;
      const task = work().catch((error: unknown) => {
        if (seen.get(key) === task) seen.delete(key);
        throw error;
      });
      seen.set(key, task);
      if (seen.size > max) {
        const oldest = seen.keys().next().value;
        if (oldest !== undefined) seen.delete(oldest);
      }
      return task;
    },
  };
}
