// Reads the Prometheus text exposition back into samples, for tests that compare counters with
// what they sent.

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Every sample line of an exposition (comments skipped). */
export function parseExposition(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = LINE.exec(line);
    if (!m?.[1] || m[3] === undefined) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(LABEL)) labels[l[1] ?? ''] = l[2] ?? '';
    out.push({ name: m[1], labels, value: m[3] === '+Inf' ? Number.POSITIVE_INFINITY : Number(m[3]) });
  }
  return out;
}

/** `name -> type` from the `# TYPE` lines. */
export function metricTypes(text: string): Map<string, string> {
  const types = new Map<string, string>();
  for (const m of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) types.set(m[1] ?? '', m[2] ?? '');
  return types;
}

/**
 * The value of the one sample named `name` whose labels are exactly `labels` (histogram `le`
 * included when given); 0 when there is none, as Prometheus treats a series not created yet.
 */
export function sampleValue(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): number {
  const want = Object.entries(labels);
  const found = samples.filter(
    (s) => s.name === name && Object.keys(s.labels).length === want.length && want.every(([k, v]) => s.labels[k] === v),
  );
  if (found.length > 1) throw new Error(`${found.length} samples match ${name} ${JSON.stringify(labels)}`);
  return found[0]?.value ?? 0;
}

/** Every sample name an exposition can contain: histograms as their _bucket, _sum and _count series. */
export function exposedNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const [name, type] of metricTypes(text)) {
    if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${name}${suffix}`);
    else if (type === 'summary') for (const suffix of ['', '_sum', '_count']) names.add(`${name}${suffix}`);
    else names.add(name);
  }
  return names;
}
