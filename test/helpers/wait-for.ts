// Waits on conditions and events instead of fixed sleeps: a test goes on the moment what it needs
// has happened, and a condition that never comes fails with what was awaited, not a later mismatch.
import { setImmediate as nextImmediate } from 'node:timers/promises';

export interface WaitForOptions {
  /** how long to wait before failing (default 10 s: generous, as a loaded machine is slow) */
  timeoutMs?: number;
  /** what is awaited, for the timeout's message */
  what?: string;
  /** how often the condition is asked (default 10 ms) */
  stepMs?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_STEP_MS = 10;

type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

/**
 * Asks `condition` until it returns a truthy value and resolves with that value; rejects with
 * "timed out after N ms waiting for <what>" when it never does, and at once when it throws.
 */
export async function waitFor<T>(condition: () => T | Promise<T>, options: WaitForOptions = {}): Promise<Truthy<T>> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const stepMs = options.stepMs ?? DEFAULT_STEP_MS;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value as Truthy<T>;
    if (Date.now() >= deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${options.what ?? 'a condition'}`);
    }
    await new Promise((resolve) => setTimeout(resolve, stepMs));
  }
}

/**
 * Lets the callbacks already queued with setImmediate run (and the promises they settle):
 * e.g. the handlers of an event emitted off the caller's path. Not a wait on time.
 */
export async function flushImmediates(rounds = 1): Promise<void> {
  for (let i = 0; i < rounds; i++) await nextImmediate();
}

/**
 * A bounded wait that IS the assertion: nothing may happen during `ms` (a duplicate answer, a
 * second fire). Used only where no positive marker can show that the moment has passed.
 */
export function quietPeriod(ms: number, _reason: string): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
