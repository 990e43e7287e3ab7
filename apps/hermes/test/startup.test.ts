import { describe, expect, it } from 'vitest';
import { StartupPhases } from '../src/startup-phases.js';

describe('StartupPhases', () => {
  it('times each phase from the previous mark, in order, adding up to the time since the process started', async () => {
    const phases = new StartupPhases();
    phases.mark('first');
    await new Promise((r) => setTimeout(r, 20));
    phases.mark('second');
    const summary = phases.summary();
    expect(Object.keys(summary)).toEqual(['first', 'second', 'total']);
    expect(summary.second).toBeGreaterThanOrEqual(19);
    const sum = (summary.first ?? 0) + (summary.second ?? 0);
    expect(Math.abs(sum - (summary.total ?? 0))).toBeLessThanOrEqual(1);
    expect(summary.total).toBeLessThanOrEqual(performance.now() + 1);
  });
});
