/** The seams every adapter takes for tests: time, randomness (backoff jitter) and sleeping. */
import { abortableSleep, type Sleep } from './backoff.js';

export interface AdapterDeps {
  sleep?: Sleep;
  random?: () => number;
  now?: () => number;
}

/** The seams with the real ones filled in: the abortable timer, Math.random, Date.now. */
export function resolveAdapterDeps(deps: AdapterDeps = {}): Required<AdapterDeps> {
  return { sleep: deps.sleep ?? abortableSleep, random: deps.random ?? Math.random, now: deps.now ?? Date.now };
}
