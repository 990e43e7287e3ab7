// Histogram cells (metrics/cells.ts): plain numbers on the hot path, prom-client's text at a scrape.
import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import type { MetricSpec } from '../src/metrics/catalog.js';
import { CellHistogram } from '../src/metrics/cells.js';

const SPEC: MetricSpec = {
  name: 'test_duration_seconds',
  type: 'histogram',
  labels: ['platform', 'outcome'],
  help: 'A test histogram.',
  buckets: [0.005, 0.05, 0.5, 5],
};

/** The same spec as prom-client's own histogram. */
function promHistogram(registry: Registry, spec: MetricSpec): Histogram {
  return new Histogram({
    name: spec.name,
    help: spec.help,
    labelNames: spec.labels,
    buckets: [...(spec.buckets ?? [])],
    registers: [registry],
  });
}

const VALUES = [0, 0.001, 0.005, 0.0051, 0.05, 0.2, 0.5, 4.9, 5, 5.01, 120];

describe('CellHistogram', () => {
  it("scrapes as prom-client's histogram does for the same observations", async () => {
    const cells = new Registry();
    const prom = new Registry();
    const ours = new CellHistogram(cells, SPEC);
    const theirs = promHistogram(prom, SPEC);
    ours.zero({ platform: 'slack', outcome: 'ok' });
    theirs.zero({ platform: 'slack', outcome: 'ok' });
    for (const [i, v] of VALUES.entries()) {
      const outcome = i % 3 === 0 ? 'error' : 'ok';
      ours.labels('telegram', outcome).observe(v);
      theirs.observe({ platform: 'telegram', outcome }, v);
    }
    const text = await cells.metrics();
    expect(text).toBe(await prom.metrics());
    expect(text).toContain('test_duration_seconds_bucket{le="+Inf",platform="telegram",outcome="ok"} 7');
    expect(text).toContain('test_duration_seconds_count{platform="slack",outcome="ok"} 0');
    // a second read counts the same (the cells are read, not moved)
    expect(await cells.metrics()).toBe(text);
    expect((await ours.get()).values).toEqual((await theirs.get()).values);
  });

  it('keeps one cell per series, shows a histogram without labels at zero, and refuses what prom-client refuses', async () => {
    const registry = new Registry();
    const ours = new CellHistogram(registry, SPEC);
    expect(ours.labels('a', 'b')).toBe(ours.labels('a', 'b'));
    expect(() => ours.labels('a')).toThrow(TypeError);
    expect(() => ours.labels('a', 'b').observe(Number.NaN)).toThrow(TypeError);
    const bare = new CellHistogram(registry, { ...SPEC, name: 'bare_seconds', labels: [] });
    expect(await registry.getSingleMetricAsString('bare_seconds')).toContain('bare_seconds_count 0');
    bare.labels().observe(1);
    expect(await registry.getSingleMetricAsString('bare_seconds')).toContain('bare_seconds_count 1');
  });
});
