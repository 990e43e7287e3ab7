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
  return envClock(env, 'CRON', real);
}

/**
 * A clock with the TEST-ONLY knobs `HERMES_<NAME>_CLOCK_SPEED` and `HERMES_<NAME>_CLOCK_OFFSET_MS`
 * (the scheduler's: CRON; the usage limits': LIMITS); the real clock when neither is set.
 */
export function envClock(
  env: Readonly<Record<string, string | undefined>>,
  name: string,
  real: () => number = Date.now,
): CronClock {
  const speedVar = `HERMES_${name}_CLOCK_SPEED`;
  const offsetVar = `HERMES_${name}_CLOCK_OFFSET_MS`;
  const speed = number(env[speedVar], speedVar, 1);
  const offset = number(env[offsetVar], offsetVar, 0);
  if (speed <= 0) throw new Error(`${speedVar} must be above 0 (got ${speed})`);
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
