/** The adapter's connection state for status() and /health, logged once per change of state. */
import type { Logger, PlatformConnection, PlatformState } from '@hermes/protocol';

export interface StatusTracker {
  get(): PlatformState;
  /** records the state; logs only when it differs from the current one */
  set(state: PlatformConnection, error?: string): void;
  /** resolves the first time the state becomes one of `states` (at once if it already is) */
  when(states: readonly PlatformConnection[]): Promise<void>;
}

export interface StatusTrackerOptions {
  /** the platform's name, the prefix of every line logged (`telegram: connected`) */
  platform: string;
  /** what the warning on entering 'error' says after the prefix; default `connection error` */
  errorMessage?: string;
  now?: () => number;
}

/** Creates a tracker starting in 'disconnected'. */
export function createStatusTracker(logger: Logger, options: StatusTrackerOptions): StatusTracker {
  const { platform, errorMessage = 'connection error', now = Date.now } = options;
  let current: PlatformState = { state: 'disconnected', since: now() };
  const waiters = new Set<{ states: readonly PlatformConnection[]; resolve: () => void }>();
  return {
    get: () => ({ ...current }),
    set(state, error) {
      if (state === current.state) {
        if (error !== undefined && error !== current.error) {
          current = { ...current, error };
          logger.debug({ error }, `${platform}: still ${state}`);
        }
        return;
      }
      current = { state, since: now(), ...(error === undefined ? {} : { error }) };
      if (state === 'error') logger.warn({ error }, `${platform}: ${errorMessage}`);
      else logger.info(`${platform}: ${state}`);
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
