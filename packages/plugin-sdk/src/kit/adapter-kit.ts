/**
 * What every adapter sets up first: its test seams (time, randomness for backoff jitter, sleeping)
 * with the real ones filled in, its status tracker and its in-flight tracker.
 */
import type { Logger } from '@hermes/protocol';
import { abortableSleep, type Sleep } from './backoff.js';
import { createInFlight, type InFlight } from './in-flight.js';
import { createStatusTracker, type StatusTracker, type StatusTrackerOptions } from './status-tracker.js';

/** The seams an adapter takes for tests. */
export interface AdapterDeps {
  sleep?: Sleep;
  random?: () => number;
  now?: () => number;
}

/** The seams with the real ones filled in: the abortable timer, Math.random, Date.now. */
export function resolveAdapterDeps(deps: AdapterDeps = {}): Required<AdapterDeps> {
  return { sleep: deps.sleep ?? abortableSleep, random: deps.random ?? Math.random, now: deps.now ?? Date.now };
}

export interface AdapterKit extends Required<AdapterDeps> {
  /** the connection state behind status() and /health */
  status: StatusTracker;
  /** sends and handlers still running, awaited by stop() */
  inFlight: InFlight;
}

/** The seams resolved, a status tracker on `deps.now` (logging as `options.platform`) and an in-flight tracker. */
export function createAdapterKit(
  logger: Logger,
  deps: AdapterDeps,
  options: Omit<StatusTrackerOptions, 'now'>,
): AdapterKit {
  const resolved = resolveAdapterDeps(deps);
  return {
    ...resolved,
    status: createStatusTracker(logger, { ...options, now: resolved.now }),
    inFlight: createInFlight(),
  };
}
