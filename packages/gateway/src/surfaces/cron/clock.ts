/**
 * The scheduler's clock. TEST-ONLY knobs (docs/cron.md): `HERMES_CRON_CLOCK_SPEED` (clock time
 * runs N times faster than real time, so `every 1m` fires every second at 60) and
 * `HERMES_CRON_CLOCK_OFFSET_MS` (the clock starts this far ahead of real time, so a test can
 * "stop the gateway over a scheduled time" without waiting). Both default to off.
 */
export interface CronClock {
  /** the scheduler's now, in ms since the epoch */
  now(): number;
  /** how long to wait in real time for `ms` of clock time to pass */
  realDelay(ms: number): number;
}

export const realClock: CronClock = { now: Date.now, realDelay: (ms) => ms };

/** The clock from the environment (the real one unless a test-only variable is set); throws on a bad value. */
export function cronClock(env: Readonly<Record<string, string | undefined>>, real: () => number = Date.now): CronClock {
  const speed = number(env.HERMES_CRON_CLOCK_SPEED, 'HERMES_CRON_CLOCK_SPEED', 1);
  const offset = number(env.HERMES_CRON_CLOCK_OFFSET_MS, 'HERMES_CRON_CLOCK_OFFSET_MS', 0);
  if (speed <= 0) throw new Error(`HERMES_CRON_CLOCK_SPEED must be above 0 (got ${speed})`);
  if (speed === 1 && offset === 0) return { now: real, realDelay: (ms) => ms };
  const start = real();
  return {
    now: () => start + offset + (real() - start) * speed,
    realDelay: (ms) => ms / speed,
  };
}

function number(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new Error(`${name} must be a number (got "${value}")`);
  return n;
}
