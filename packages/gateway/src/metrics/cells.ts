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

/**
 * One histogram series: the hot path counts into plain numbers (a bucket index found by a loop, no
 * label hashing, no objects), the scrape reads them. A value above every bound counts in `+Inf`
 * only, as prom-client's own histogram does.
 */
export class HistogramCell {
  /** observations per bucket (not cumulative): counts[i] for values in (bounds[i-1], bounds[i]] */
  readonly counts: number[];
  sum = 0;
  count = 0;

  readonly #bounds: readonly number[];

  constructor(bounds: readonly number[]) {
    this.#bounds = bounds;
    this.counts = bounds.map(() => 0);
  }

  observe(value: number): void {
    if (!Number.isFinite(value)) throw new TypeError(`Value is not a valid number: ${value}`);
    const bounds = this.#bounds;
    let i = 0;
    while (i < bounds.length && value > (bounds[i] as number)) i++;
    if (i < bounds.length) this.counts[i] = (this.counts[i] as number) + 1;
    this.sum += value;
    this.count += 1;
  }
}

/** The shape prom-client's Histogram keeps per series (its `hashMap` values; what its export reads). */
interface PromHistogramSeries {
  labels: Labels;
  bucketValues: Record<number, number>;
  sum: number;
  count: number;
}

/**
 * A labelled histogram whose series are HistogramCells: a prom-client Histogram serves them, filled
 * from the cells when it is read (a scrape, `get()`), so an observation costs a few additions
 * whether anyone scrapes or not. Its text is the same as prom-client's for the same observations
 * (test/metrics-cells.test.ts compares the two).
 */
export class CellHistogram {
  readonly #labelNames: readonly string[];
  readonly #bounds: readonly number[];
  readonly #series = new Map<string, { labels: Labels; cell: HistogramCell }>();
  readonly #histogram: Histogram;

  constructor(registry: Registry, spec: MetricSpec) {
    this.#labelNames = spec.labels;
    const bounds = [...(spec.buckets ?? [])];
    this.#bounds = bounds;
    const series = this.#series;
    this.#histogram = new Histogram({
      name: spec.name,
      help: spec.help,
      labelNames: spec.labels,
      buckets: bounds,
      registers: [registry],
      collect() {
        this.reset();
        const map = (this as unknown as { hashMap: Record<string, PromHistogramSeries> }).hashMap;
        for (const [key, { labels, cell }] of series) {
          const bucketValues: Record<number, number> = {};
          bounds.forEach((bound, i) => {
            bucketValues[bound] = cell.counts[i] as number;
          });
          map[key] = { labels, bucketValues, sum: cell.sum, count: cell.count };
        }
      },
    });
    // prom-client shows a histogram without labels at zero before its first observation
    if (spec.labels.length === 0) this.labels();
  }

  /** The cell for these label values (in the spec's label order), created at zero on first use; keep it. */
  labels(...values: string[]): HistogramCell {
    const key = values.join('\u0000');
    let entry = this.#series.get(key);
    if (!entry) {
      if (values.length !== this.#labelNames.length)
        throw new TypeError(`expected ${this.#labelNames.length} label values, got ${values.length}`);
      const labels: Labels = {};
      this.#labelNames.forEach((name, i) => {
        labels[name] = values[i];
      });
      entry = { labels, cell: new HistogramCell(this.#bounds) };
      this.#series.set(key, entry);
    }
    return entry.cell;
  }

  /** The series of these labels, at zero until observed (shown by a scrape before its first observation). */
  zero(labels: Labels): void {
    this.labels(...this.#labelNames.map((name) => labels[name] ?? ''));
  }

  /** What prom-client's `get()` gives: the series as read now. */
  get(): ReturnType<Histogram['get']> {
    return this.#histogram.get();
  }
}
