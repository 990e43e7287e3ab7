// Waits on conditions and events instead of fixed sleeps: a test goes on the moment what it needs
// has happened, and a condition that never comes fails with what was awaited, not a later mismatch.
import { setImmediate as nextImmediate } from 'node:timers/promises';

export interface WaitForOptions {
  /** how long to wait before failing (default 30 s: generous, as two test files at once on two cores are slow) */
  timeoutMs?: number;
  /** what is awaited, for the timeout's message, or a function telling it at that moment (default: the condition's source text) */
  what?: string | (() => string);
  /** how often the condition is asked (default 10 ms) */
  stepMs?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;
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
      const what = typeof options.what === 'function' ? options.what() : options.what;
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what ?? String(condition)}`);
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

/**
 * Reads until `ok(value)` holds and resolves with that value; a timeout's message ends with the
 * last value read (a metric that never reached its count shows where it stopped).
 */
export async function waitForValue<T>(
  read: () => T | Promise<T>,
  ok: (value: T) => boolean,
  options: WaitForOptions = {},
): Promise<T> {
  let last: { value: T } | undefined;
  try {
    const found = await waitFor(
      async () => {
        last = { value: await read() };
        return ok(last.value) ? last : undefined;
      },
      { ...options, what: options.what ?? String(read) },
    );
    return found.value;
  } catch (error) {
    if (last === undefined || !(error instanceof Error) || !error.message.startsWith('timed out')) throw error;
    throw new Error(`${error.message}: last read ${JSON.stringify(last.value)}`);
  }
}
