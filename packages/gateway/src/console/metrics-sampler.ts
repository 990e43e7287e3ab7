/**
 * The live chart's samples: per-second rates between two snapshots of the gateway's counters, and
 * the median turn time of the turns finished in between (the upper bound of the histogram bucket
 * holding it; null when none finished).
 */
import type { ConsoleMetricsSnapshot } from '../metrics/gateway-metrics.js';

export interface MetricsSample {
  at: number;
  received_per_s: number;
  answered_per_s: number;
  turn_p50_ms: number | null;
  errors_per_s: number;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** The median's bucket bound (ms) of the turns between two cumulative bucket lists. */
export function medianMs(
  before: ConsoleMetricsSnapshot['turnBuckets'],
  after: ConsoleMetricsSnapshot['turnBuckets'],
): number | null {
  const earlier = new Map(before.map((b) => [b.le, b.count]));
  const deltas = after.map((b) => ({ le: b.le, count: b.count - (earlier.get(b.le) ?? 0) }));
  const total = deltas.at(-1)?.count ?? 0;
  if (total <= 0) return null;
  const finite = deltas.filter((d) => Number.isFinite(d.le));
  const hit = finite.find((d) => d.count >= total / 2) ?? finite.at(-1);
  return hit === undefined ? null : Math.round(hit.le * 1000);
}

export class MetricsSampler {
  #last: { at: number; snapshot: ConsoleMetricsSnapshot } | null = null;
  readonly #read: () => Promise<ConsoleMetricsSnapshot>;

  constructor(read: () => Promise<ConsoleMetricsSnapshot>) {
    this.#read = read;
  }

  /** A sample since the previous call (the first call: zero rates since the sampler was made). */
  async sample(now = Date.now()): Promise<MetricsSample> {
    const snapshot = await this.#read();
    const last = this.#last ?? { at: now, snapshot };
    this.#last = { at: now, snapshot };
    const seconds = Math.max((now - last.at) / 1000, 0.001);
    const rate = (key: 'received' | 'answered' | 'errors') =>
      last === null ? 0 : round2(Math.max(0, snapshot[key] - last.snapshot[key]) / seconds);
    return {
      at: now,
      received_per_s: rate('received'),
      answered_per_s: rate('answered'),
      turn_p50_ms: medianMs(last.snapshot.turnBuckets, snapshot.turnBuckets),
      errors_per_s: rate('errors'),
    };
  }
}
