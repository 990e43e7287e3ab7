/** The adapter's connection state for status() and /health, logged once per change of state. */
import type { Logger, PlatformConnection, PlatformState } from '@hermes/protocol';

export interface StatusTracker {
  get(): PlatformState;
  /** records the state; logs only when it differs from the current one */
  set(state: PlatformConnection, error?: string): void;
  /** resolves the first time the state becomes one of `states` (at once if it already is) */
  when(states: readonly PlatformConnection[]): Promise<void>;
}

/** Creates a tracker starting in 'disconnected'. */
export function createStatusTracker(logger: Logger, now: () => number = Date.now): StatusTracker {
  let current: PlatformState = { state: 'disconnected', since: now() };
  const waiters = new Set<{ states: readonly PlatformConnection[]; resolve: () => void }>();
  return {
    get: () => ({ ...current }),
    set(state, error) {
      if (state === current.state) {
        if (error !== undefined && error !== current.error) {
          current = { ...current, error };
          logger.debug({ error }, `slack: still ${state}`);
        }
        return;
      }
      current = { state, since: now(), ...(error === undefined ? {} : { error }) };
      if (state === 'error') logger.warn({ error }, 'slack: connection error');
      else logger.info(`slack: ${state}`);
      for (const waiter of [...waiters]) {
        if (!waiter.states.includes(state)) continue;
        waiters.delete(waiter);
        waiter.resolve();
      }
    },
    when(states) {
      if (states.includes(current.state)) return Promise.resolve();
      return new Promise((resolve) => waiters.add({ states, resolve }));
    },
  };
}
