// The console's live stream over a real socket on 127.0.0.1 (SSE: platforms at connect and on a
// change, metrics samples, log records at or above info), the metrics sampler's rates and median,
// and the log ring's bound.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogRing } from '../../src/console/log-ring.js';
import { MetricsSampler, medianMs } from '../../src/console/metrics-sampler.js';
import type { ConsoleMetricsSnapshot } from '../../src/metrics/gateway-metrics.js';
import { type ConsoleHarness, startConsole } from './console-harness.js';

let h: ConsoleHarness;
let url: string;
beforeAll(async () => {
  h = await startConsole({ intervals: { platformsMs: 20, metricsMs: 30 } });
  url = await h.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await h.stop();
});

/** Reads SSE events from a stream until `enough` says so. */
async function readEvents(
  body: ReadableStream<Uint8Array>,
  enough: (events: { event: string; data: unknown }[]) => boolean,
): Promise<{ event: string; data: unknown }[]> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const events: { event: string; data: unknown }[] = [];
  let buffer = '';
  while (!enough(events)) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? '';
      const data = /^data: (.*)$/m.exec(block)?.[1] ?? 'null';
      events.push({ event, data: JSON.parse(data) });
      end = buffer.indexOf('\n\n');
    }
  }
  await reader.cancel();
  return events;
}

describe('GET /console/api/events', () => {
  it('streams platforms at connect, metrics samples and log records', async () => {
    const { cookie } = await h.login();
    const controller = new AbortController();
    const res = await fetch(`${url}/console/api/events`, { headers: { cookie }, signal: controller.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    const logged = setInterval(() => h.logger.info({ component: 'test' }, 'tick for the stream'), 10);
    const debug = setInterval(() => h.logger.debug('never shown'), 10);
    const events = await readEvents(res.body as ReadableStream<Uint8Array>, (e) =>
      ['platforms', 'metrics', 'log'].every((name) => e.some((x) => x.event === name)),
    ).finally(() => {
      clearInterval(logged);
      clearInterval(debug);
      controller.abort();
    });
    expect(events[0]).toEqual({
      event: 'platforms',
      data: { memory: { state: 'connected', since: expect.any(Number), reconnects: 0 } },
    });
    expect(events.find((e) => e.event === 'metrics')?.data).toEqual({
      at: expect.any(Number),
      received_per_s: expect.any(Number),
      answered_per_s: expect.any(Number),
      turn_p50_ms: null,
      errors_per_s: expect.any(Number),
    });
    expect(events.find((e) => e.event === 'log')?.data).toEqual({
      time: expect.any(Number),
      level: 'info',
      msg: 'tick for the stream',
      component: 'test',
    });
    expect(JSON.stringify(events)).not.toContain('never shown');
  });

  it('answers without a cookie on loopback with no token (no login asked there)', async () => {
    const controller = new AbortController();
    const res = await fetch(`${url}/console/api/events`, { signal: controller.signal });
    expect(res.status).toBe(200);
    const events = await readEvents(res.body as ReadableStream<Uint8Array>, (e) => e.length > 0).finally(() =>
      controller.abort(),
    );
    expect(events[0]?.event).toBe('platforms');
  });
});

describe('MetricsSampler', () => {
  it('computes per-second rates between snapshots and the median turn bucket', async () => {
    let snap: ConsoleMetricsSnapshot = {
      received: 10,
      answered: 5,
      errors: 1,
      turnBuckets: [
        { le: 1, count: 2 },
        { le: 5, count: 5 },
        { le: Number.POSITIVE_INFINITY, count: 5 },
      ],
    };
    const sampler = new MetricsSampler(async () => snap);
    expect(await sampler.sample(1_000)).toMatchObject({ received_per_s: 0, turn_p50_ms: null });
    snap = {
      received: 30,
      answered: 9,
      errors: 2,
      turnBuckets: [
        { le: 1, count: 2 },
        { le: 5, count: 8 },
        { le: Number.POSITIVE_INFINITY, count: 9 },
      ],
    };
    expect(await sampler.sample(3_000)).toEqual({
      at: 3_000,
      received_per_s: 10,
      answered_per_s: 2,
      turn_p50_ms: 5_000,
      errors_per_s: 0.5,
    });
    expect(medianMs([], [{ le: Number.POSITIVE_INFINITY, count: 0 }])).toBeNull();
  });

  it("reads the gateway's counters (accepted messages, completed turns)", async () => {
    const snapshot = await h.gateway.metrics.consoleSnapshot();
    expect(snapshot).toEqual({ received: expect.any(Number), answered: 0, errors: 0, turnBuckets: expect.any(Array) });
    h.gateway.metrics.platform('memory').accepted.inc();
    expect((await h.gateway.metrics.consoleSnapshot()).received).toBe(snapshot.received + 1);
  });
});

describe('LogRing', () => {
  it('keeps the last records only, filters by level, and parses pino lines', () => {
    const ring = new LogRing(3);
    for (let i = 0; i < 5; i++)
      ring.push(`${JSON.stringify({ time: i, msg: `m${i}`, component: 'c' })}\n`, i % 2 ? 40 : 30);
    expect(ring.query('trace', 10).map((r) => r.msg)).toEqual(['m2', 'm3', 'm4']);
    expect(ring.query('warn', 10).map((r) => r.msg)).toEqual(['m3']);
    ring.push('not json\n', 50);
    expect(ring.query('error', 10)).toEqual([{ time: expect.any(Number), level: 'error', msg: 'not json' }]);
  });
});
