// docs/metrics.md and docker/grafana-dashboard.json against what /metrics really exposes.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { METRICS } from '../src/metrics/catalog.js';
import { GatewayMetrics } from '../src/metrics/gateway-metrics.js';
import { exposedNames, metricTypes } from './metrics-scrape.js';

const read = (path: string) => readFileSync(fileURLToPath(new URL(`../../../${path}`, import.meta.url)), 'utf8');

/** PromQL words that are not metric names: functions, aggregations, keywords. */
const PROMQL_WORDS = new Set([
  'sum',
  'min',
  'max',
  'avg',
  'count',
  'topk',
  'bottomk',
  'by',
  'without',
  'rate',
  'irate',
  'increase',
  'delta',
  'histogram_quantile',
  'min_over_time',
  'max_over_time',
  'avg_over_time',
  'clamp_min',
  'clamp_max',
  'abs',
  'and',
  'or',
  'unless',
  'on',
  'ignoring',
  'offset',
]);

/** The metric names a PromQL expression reads (label matchers, groupings, ranges and numbers removed). */
export function metricNamesIn(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""') // strings
    .replace(/\{[^}]*\}/g, ' ') // label matchers
    .replace(/\[[^\]]*\]/g, ' ') // ranges and subqueries
    .replace(/\b(by|without|on|ignoring)\s*\([^)]*\)/g, ' ') // grouping labels
    .replace(/\b\d+(\.\d+)?\b/g, ' ');
  const words = stripped.match(/[a-zA-Z_:][a-zA-Z0-9_:]*/g) ?? [];
  return words.filter((w) => !PROMQL_WORDS.has(w));
}

interface Panel {
  type: string;
  title: string;
  targets?: { expr?: string; refId?: string }[];
  datasource?: { type?: string; uid?: string };
}

describe('docs/metrics.md', () => {
  const doc = read('docs/metrics.md');

  it('has one table row per metric, with its exact type and labels', () => {
    const rows = new Map<string, { type: string; labels: string[] }>();
    for (const m of doc.matchAll(/^\| `(hermes_[a-z0-9_]+)` \| (\w+) \| ([^|]*) \|/gm)) {
      const labels =
        (m[3] ?? '').trim() === 'none' ? [] : [...(m[3] ?? '').matchAll(/`([a-z_]+)`/g)].map((l) => l[1] ?? '');
      rows.set(m[1] ?? '', { type: m[2] ?? '', labels });
    }
    const catalog = Object.values(METRICS);
    expect([...rows.keys()].sort()).toEqual(catalog.map((s) => s.name).sort());
    for (const spec of catalog)
      expect(rows.get(spec.name), spec.name).toEqual({ type: spec.type, labels: [...spec.labels] });
  });

  it('names only process metrics /metrics really has', async () => {
    const exposed = [...metricTypes(await new GatewayMetrics().scrape()).keys()];
    const section = doc.slice(doc.indexOf('### Process metrics'), doc.indexOf('## The dashboard'));
    const named = [...section.matchAll(/`((?:process|nodejs)_[a-z0-9_]+)`/g)].map((m) => m[1] ?? '');
    expect(named.length).toBeGreaterThanOrEqual(5);
    for (const name of named) expect(exposed, name).toContain(name);
  });

  it('its alert examples use exposed metrics only, and the README links the page', async () => {
    const exposed = exposedNames(await new GatewayMetrics().scrape());
    const promql = [...doc.matchAll(/```promql\n([\s\S]*?)```/g)].flatMap((m) =>
      (m[1] ?? '').split('\n').filter((l) => l.trim() !== '' && !l.startsWith('#')),
    );
    expect(promql.length).toBeGreaterThan(0);
    for (const expr of promql)
      for (const name of metricNamesIn(expr)) expect(exposed, `${name} in ${expr}`).toContain(name);
    expect(read('README.md')).toContain('[docs/metrics.md](docs/metrics.md)');
  });
});

describe('docker/grafana-dashboard.json', () => {
  const dashboard = JSON.parse(read('docker/grafana-dashboard.json')) as {
    title: string;
    uid: string;
    schemaVersion: number;
    panels: Panel[];
    templating: { list: { name: string; type: string; query?: unknown }[] };
  };

  it('is an importable dashboard: title, uid, panels on a Prometheus data source variable', () => {
    expect(dashboard.title).toBe('Hermes Gateway');
    expect(dashboard.uid).toMatch(/^[a-z0-9-]{1,40}$/);
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(36);
    const ds = dashboard.templating.list.find((v) => v.type === 'datasource');
    expect(ds).toMatchObject({ name: 'datasource', query: 'prometheus' });
    const charts = dashboard.panels.filter((p) => p.type !== 'row');
    expect(charts.length).toBeGreaterThanOrEqual(12);
    for (const p of charts) {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Grafana's variable syntax, not a template literal
      expect(p.datasource, p.title).toEqual({ type: 'prometheus', uid: '${datasource}' });
      expect(p.targets?.length, p.title).toBeGreaterThan(0);
      expect(new Set(p.targets?.map((t) => t.refId)).size, p.title).toBe(p.targets?.length);
    }
  });

  it('queries only metric names that /metrics exposes, and covers every hermes metric', async () => {
    const text = await new GatewayMetrics().scrape();
    const exposed = exposedNames(text);
    const used = new Set<string>();
    const exprs = dashboard.panels.flatMap((p) => p.targets ?? []).map((t) => t.expr ?? '');
    for (const expr of exprs) {
      const names = metricNamesIn(expr);
      expect(names.length, expr).toBeGreaterThan(0);
      for (const name of names) {
        expect(exposed, `${name} in ${expr}`).toContain(name);
        used.add(name.replace(/_(bucket|sum|count)$/, ''));
      }
    }
    // the instance variable's label_values() query too
    const variable = JSON.stringify(dashboard.templating.list.find((v) => v.name === 'instance')?.query ?? '');
    const inVariable = variable.match(/hermes_[a-z0-9_]+/g) ?? [];
    expect(inVariable.length).toBe(1);
    for (const name of inVariable) expect(exposed, name).toContain(name);
    const hermes = [...metricTypes(text).keys()].filter((n) => n.startsWith('hermes_'));
    for (const name of hermes) expect(used, `the dashboard shows ${name}`).toContain(name);
    console.log(`dashboard: ${exprs.length} queries over ${used.size} metrics, all exposed by /metrics`);
  });
});
