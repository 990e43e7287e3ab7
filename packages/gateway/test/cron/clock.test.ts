// The scheduler's clock: real by default; the test-only speed and offset variables.
import { describe, expect, it } from 'vitest';
import { cronClock } from '../../src/surfaces/cron/clock.js';

describe('cronClock', () => {
  it('is the real clock unless a test-only variable is set', () => {
    const clock = cronClock({}, () => 1000);
    expect(clock.now()).toBe(1000);
    expect(clock.realDelay(500)).toBe(500);
  });

  it('HERMES_CRON_CLOCK_SPEED runs it N times faster; HERMES_CRON_CLOCK_OFFSET_MS starts it ahead', () => {
    let real = 10_000;
    const clock = cronClock({ HERMES_CRON_CLOCK_SPEED: '60', HERMES_CRON_CLOCK_OFFSET_MS: '3600000' }, () => real);
    expect(clock.now()).toBe(10_000 + 3_600_000);
    real += 1_000;
    expect(clock.now()).toBe(10_000 + 3_600_000 + 60_000);
    expect(clock.realDelay(60_000)).toBe(1_000);
  });

  it('refuses values that are not positive numbers, naming the variable', () => {
    expect(() => cronClock({ HERMES_CRON_CLOCK_SPEED: 'fast' })).toThrow('HERMES_CRON_CLOCK_SPEED must be a number');
    expect(() => cronClock({ HERMES_CRON_CLOCK_SPEED: '0' })).toThrow('must be above 0');
    expect(() => cronClock({ HERMES_CRON_CLOCK_OFFSET_MS: 'x' })).toThrow('HERMES_CRON_CLOCK_OFFSET_MS');
  });
});
