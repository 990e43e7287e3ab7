/**
 * Counters on the message path are plain numbers: a pipeline stage adds to a cell it looked up
 * once (no label hashing, no allocation per message), and the prom-client Counter reads the
 * cells when /metrics is scraped. prom-client's own `labels().inc()` hashes the label values on
 * every call; here that happens once per series.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { MetricSpec } from './catalog.js';

/** One counter series: the hot path adds to `value`, the scrape reads it. */
export class CounterCell {
  value = 0;

  inc(by = 1): void {
    this.value += by;
  }
}

type Labels = Partial<Record<string, string>>;

/** A labelled counter whose series are CounterCells. */
export class CellCounter {
  readonly #labelNames: readonly string[];
  readonly #series = new Map<string, { labels: Labels; cell: CounterCell }>();

  constructor(registry: Registry, spec: MetricSpec) {
    this.#labelNames = spec.labels;
    const series = this.#series;
    new Counter({
      name: spec.name,
      help: spec.help,
      labelNames: spec.labels,
      registers: [registry],
      collect() {
        this.reset();
        for (const s of series.values()) this.inc(s.labels, s.cell.value);
      },
    });
  }

  /** The cell for these label values (in the spec's label order), created at zero on first use; keep it. */
  cell(...values: string[]): CounterCell {
    const key = values.join('\u0000');
    let entry = this.#series.get(key);
    if (!entry) {
      if (values.length !== this.#labelNames.length)
        throw new TypeError(`expected ${this.#labelNames.length} label values, got ${values.length}`);
      const labels: Labels = {};
      this.#labelNames.forEach((name, i) => {
        labels[name] = values[i];
      });
      entry = { labels, cell: new CounterCell() };
      this.#series.set(key, entry);
    }
    return entry.cell;
  }

  /** The sum of the series whose labels pass `match` (every series without one). */
  sum(match: (labels: Labels) => boolean = () => true): number {
    let total = 0;
    for (const s of this.#series.values()) if (match(s.labels)) total += s.cell.value;
    return total;
  }
}

/** A gauge whose series are computed when scraped (`read` may ask the store: a promise is awaited). */
export function scrapeGauge(
  registry: Registry,
  spec: MetricSpec,
  read: () => Iterable<[Labels, number]> | Promise<Iterable<[Labels, number]>>,
): void {
  new Gauge({
    name: spec.name,
    help: spec.help,
    labelNames: spec.labels,
    registers: [registry],
    async collect() {
      const series = await read();
      this.reset();
      for (const [labels, value] of series) {
        if (spec.labels.length === 0) this.set(value);
        else this.set(labels, value);
      }
    },
  });
}

/** A prom-client histogram from its spec (observations go through children bound once per series). */
export function specHistogram(registry: Registry, spec: MetricSpec): Histogram {
  return new Histogram({
    name: spec.name,
    help: spec.help,
    labelNames: spec.labels,
    buckets: [...(spec.buckets ?? [])],
    registers: [registry],
  });
}
