// Overview: version and uptime, each platform's live state (SSE), and charts from the metrics events.
import { useEffect, useState } from 'preact/hooks';
import { getJson } from '../shared/api.js';
import { fmtDuration, fmtTime } from '../shared/format.js';
import type { MetricsSample, Overview as OverviewData, Platforms } from '../shared/types.js';
import { Chart } from './chart.js';

export function Overview({ live, metrics }: { live: Platforms | null; metrics: MetricsSample[] }) {
  const [data, setData] = useState<OverviewData | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loadedAt, setLoadedAt] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    getJson<OverviewData>('/console/api/overview')
      .then((d) => {
        setData(d);
        setLoadedAt(Date.now());
      })
      .catch((e: Error) => setError(e.message));
    const tick = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(tick);
  }, []);
  const platforms = live ?? data?.platforms ?? {};
  const names = Object.keys(platforms).sort();
  return (
    <section>
      <h2>Overview</h2>
      {error ? <p class="error">{error}</p> : null}
      {data ? (
        <p class="muted">
          Hermes {data.version}, up {fmtDuration(data.uptime_s + Math.max(0, now - loadedAt) / 1000)}
        </p>
      ) : null}
      <h3>Platforms</h3>
      {names.length === 0 ? <p class="muted">No platform is running.</p> : null}
      <table>
        <thead>
          <tr>
            <th>platform</th>
            <th>state</th>
            <th>since</th>
            <th>reconnects</th>
            <th>error</th>
          </tr>
        </thead>
        <tbody>
          {names.map((name) => {
            const p = platforms[name]!;
            return (
              <tr key={name} data-testid={`platform-${name}`}>
                <td>{name}</td>
                <td>
                  <span class={`state state-${p.state}`} data-testid={`platform-state-${name}`}>
                    {p.state}
                  </span>
                </td>
                <td>{fmtTime(p.since)}</td>
                <td data-testid={`platform-reconnects-${name}`}>{p.reconnects}</td>
                <td class="error">{p.error ?? ''}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <h3>Activity</h3>
      <div class="charts">
        <Chart
          title="Messages received"
          unit="/s"
          values={metrics.map((m) => m.received_per_s)}
          testId="chart-received"
        />
        <Chart title="Answers" unit="/s" values={metrics.map((m) => m.answered_per_s)} testId="chart-answered" />
        <Chart title="Turn latency p50" unit="ms" values={metrics.map((m) => m.turn_p50_ms)} testId="chart-latency" />
        <Chart title="Errors" unit="/s" values={metrics.map((m) => m.errors_per_s)} testId="chart-errors" />
      </div>
    </section>
  );
}
