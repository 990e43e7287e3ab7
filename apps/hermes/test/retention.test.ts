// The gateway's retention timer: a prune at start, then one a day; the timer never keeps the process
// alive; a failing prune is logged, never thrown.
import type { PruneCounts, Pruner } from '@hermes/store';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PRUNE_INTERVAL_MS, startRetention } from '../src/retention.js';

const ZERO: PruneCounts = { sessions: 0, messages: 0, inbox: 0, outbox: 0, pairingRequests: 0, pairingFailures: 0 };

function logger() {
  const lines: { level: string; msg: string }[] = [];
  const log =
    (level: string) =>
    (_obj: unknown, msg = '') =>
      lines.push({ level, msg });
  const l = {
    trace: log('trace'),
    debug: log('debug'),
    info: log('info'),
    warn: log('warn'),
    error: log('error'),
    fatal: log('fatal'),
    child: () => l,
  };
  return { l, lines };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('startRetention', () => {
  it('prunes at start with the cutoff of retention_days, then daily; the timer is unref-ed', () => {
    vi.useFakeTimers();
    const cutoffs: number[] = [];
    const pruner: Pruner = {
      prune: (before) => {
        cutoffs.push(before);
        return { ...ZERO, sessions: 2, messages: 10 };
      },
    };
    const unref = vi.spyOn(globalThis, 'setInterval');
    const { l, lines } = logger();
    const now = 1_800_000_000_000;
    const retention = startRetention(pruner, 30, l, () => now);
    expect(cutoffs).toEqual([now - 30 * 24 * 60 * 60 * 1000]);
    expect(lines[0]?.msg).toBe(
      'state pruned (idle > 30 days): 2 sessions (10 messages), 0 inbox rows, 0 outbox rows, 0 pairing requests, 0 pairing failures',
    );
    const timer = unref.mock.results[0]?.value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
    vi.advanceTimersByTime(PRUNE_INTERVAL_MS);
    expect(cutoffs).toHaveLength(2);
    retention.stop();
    vi.advanceTimersByTime(PRUNE_INTERVAL_MS);
    expect(cutoffs).toHaveLength(2);
  });

  it('a failing prune is logged and the gateway goes on', () => {
    vi.useFakeTimers();
    const { l, lines } = logger();
    const retention = startRetention(
      {
        prune: () => {
          throw new Error('database is locked');
        },
      },
      7,
      l,
    );
    expect(lines).toEqual([{ level: 'error', msg: 'state prune failed' }]);
    retention.stop();
  });
});
