// Waiting for conditions (never fixed sleeps as assertions) and per-input deadlines.
import { waitFor } from '../../helpers/wait-for.js';

/** Resolves once `check()` is true; rejects naming `what` after `timeoutMs`. */
export async function until(what: string, check: () => boolean, timeoutMs = 10_000, stepMs = 10): Promise<void> {
  await waitFor(check, { what, timeoutMs, stepMs });
}

/** True once `check()` holds, false when `timeoutMs` passed first. */
export async function eventually(check: () => boolean, timeoutMs: number, stepMs = 10): Promise<boolean> {
  try {
    await until('', check, timeoutMs, stepMs);
    return true;
  } catch {
    return false;
  }
}

/** `work`, or the string `timeout` when it takes longer than `ms` (the per-input hang check). */
export function within<T>(work: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
