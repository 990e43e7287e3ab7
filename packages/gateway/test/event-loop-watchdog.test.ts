// The event-loop watchdog: timer drift above the threshold is a stall, logged with its duration,
// counted, and kept for a minute (what /health and /metrics read).
import type { Logger } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../../../test/helpers/wait-for.js';
import { EventLoopWatchdog } from '../src/metrics/event-loop-watchdog.js';
import { GatewayMetrics } from '../src/metrics/gateway-metrics.js';
import { parseExposition, sampleValue } from './metrics-scrape.js';

function recordingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const log = (a: unknown, b?: unknown) => lines.push(typeof a === 'string' ? a : String(b));
  const logger: Logger = { trace: log, debug: log, info: log, warn: log, error: log, fatal: log, child: () => logger };
  return { logger, lines };
}

describe('EventLoopWatchdog', () => {
  it('a tick late by more than the threshold is a stall: logged with its duration, counted, kept for the window', () => {
    let now = 0;
    const { logger, lines } = recordingLogger();
    const stalls: number[] = [];
    const w = new EventLoopWatchdog({ now: () => now, logger, onStall: (ms) => stalls.push(ms), intervalMs: 100 });
    w.start();
    w.stop();
    now = 100;
    w.tick(); // on time
    now = 250;
    w.tick(); // 50 ms late: jitter, not a stall
    expect(w.status()).toEqual({ stalls_last_minute: 0, max_delay_ms: 50, stalls_total: 0 });
    now = 250 + 100 + 1_534;
    w.tick();
    expect(lines).toEqual(['event loop blocked for 1534 ms (over 1000 ms): nothing was answered meanwhile']);
    expect(stalls).toEqual([1_534]);
    expect(w.status()).toEqual({ stalls_last_minute: 1, max_delay_ms: 1_534, stalls_total: 1 });
    now += 61_000;
    expect(w.status()).toEqual({ stalls_last_minute: 0, max_delay_ms: 0, stalls_total: 1 });
  });

  it('sees a real blocked loop', async () => {
    const w = new EventLoopWatchdog({ thresholdMs: 150, intervalMs: 20 });
    w.start();
    const until = performance.now() + 400;
    while (performance.now() < until) {
      // blocking the main thread on purpose
    }
    await waitFor(() => w.status().stalls_total >= 1, { what: 'the tick after the block' });
    w.stop();
    expect(w.status().stalls_total).toBeGreaterThanOrEqual(1);
    expect(w.status().max_delay_ms).toBeGreaterThanOrEqual(300);
  });

  it('/metrics exposes the stall count and the longest delay of the last minute', async () => {
    let now = 0;
    const metrics = new GatewayMetrics();
    const w = new EventLoopWatchdog({ now: () => now, onStall: metrics.eventLoopStalled });
    metrics.watchEventLoop(w);
    w.start();
    w.stop();
    now = 2_600;
    w.tick();
    const samples = parseExposition(await metrics.scrape());
    expect(sampleValue(samples, 'hermes_event_loop_stalls_total', {})).toBe(1);
    expect(sampleValue(samples, 'hermes_event_loop_delay_max_seconds', {})).toBe(2.5);
  });
});
