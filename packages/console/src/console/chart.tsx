// A line chart as inline SVG (no chart library): the last samples of one series.

export interface ChartProps {
  title: string;
  unit: string;
  values: readonly (number | null)[];
  testId: string;
}

const W = 300;
const H = 80;

export function Chart({ title, unit, values, testId }: ChartProps) {
  const nums = values.map((v) => (typeof v === 'number' && Number.isFinite(v) ? v : 0));
  const max = Math.max(1, ...nums);
  const step = nums.length > 1 ? W / (nums.length - 1) : W;
  const points = nums.map((v, i) => `${(i * step).toFixed(1)},${(H - (v / max) * (H - 4) - 2).toFixed(1)}`).join(' ');
  const last = values.length > 0 ? values[values.length - 1] : null;
  return (
    <figure class="chart" data-testid={testId}>
      <figcaption>
        {title}: <strong>{typeof last === 'number' ? `${Math.round(last * 100) / 100} ${unit}` : '—'}</strong>
        <span class="muted"> (max {Math.round(max * 100) / 100})</span>
      </figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} width={W} height={H} role="img" aria-label={title}>
        <rect class="chart-bg" x="0" y="0" width={W} height={H} />
        {nums.length > 1 ? <polyline class="chart-line" points={points} /> : null}
      </svg>
    </figure>
  );
}
