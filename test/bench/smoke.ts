// BENCH_SMOKE=1: every bench runs its own code path (the same processes, the same tables) shrunk to
// a few hundred messages, one round and short waits, so that `npm test` can run them all
// (test/bench/smoke.test.ts) and a change that breaks a bench fails there. Its figures mean nothing.
// Read here and nowhere else; the benches' own knobs (BENCH_ROUNDS, BENCH_MESSAGES, ...) still win.

/** true under BENCH_SMOKE=1 */
export const BENCH_SMOKE = process.env.BENCH_SMOKE === '1';

/** `full` in a real run, `smoke` under BENCH_SMOKE=1. */
export function smokeOr<T>(full: T, smoke: T): T {
  return BENCH_SMOKE ? smoke : full;
}

/** The line a smoke run prints first, so no one reads its figures as measurements. */
export function smokeNotice(): void {
  if (BENCH_SMOKE)
    console.log('BENCH_SMOKE=1: a smoke run (sizes shrunk to prove the bench runs; no figure here counts)');
}
