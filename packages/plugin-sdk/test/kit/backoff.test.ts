// The kit's backoff pacing (default and a platform's own policy) and the abortable sleep.
import { describe, expect, it } from 'vitest';
import { abortableSleep, backoffDelayMs, DEFAULT_BACKOFF } from '../../src/index.js';

describe('backoffDelayMs', () => {
  it('doubles from 1 s and caps at 30 s, jittered between half and all of the ceiling', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((attempt) => backoffDelayMs(attempt, () => 1))).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000,
    ]);
    expect([1, 2, 6].map((attempt) => backoffDelayMs(attempt, () => 0))).toEqual([500, 1000, 15000]);
    for (let attempt = 1; attempt < 50; attempt += 1) {
      const delay = backoffDelayMs(attempt);
      expect(delay).toBeGreaterThanOrEqual(500);
      expect(delay).toBeLessThanOrEqual(DEFAULT_BACKOFF.capMs);
    }
  });
});

describe('abortableSleep', () => {
  it('resolves after the delay, or at once when aborted', async () => {
    const controller = new AbortController();
    const started = Date.now();
    await abortableSleep(20, controller.signal);
    expect(Date.now() - started).toBeGreaterThanOrEqual(15);
    const long = abortableSleep(60_000, controller.signal);
    controller.abort();
    await long;
    await abortableSleep(60_000, controller.signal); // already aborted
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
