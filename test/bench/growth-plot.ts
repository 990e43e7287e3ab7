// The growth figures as a PNG (docs/perf-growth.png): an SVG drawn here, rendered by @resvg/resvg-js.
// Two panels over history rows per chat (10, 1,000, 5,000, evenly spaced): CPU ms per message and
// msg/s, one line per concurrency level.
import { writeFileSync } from 'node:fs';
import { Resvg } from '@resvg/resvg-js';

export interface PlotPoint {
  concurrency: number;
  history: number;
  round: { cpuMsPerMsg: number; msgPerSec: number };
}

const WIDTH = 960;
const HEIGHT = 420;
const PANEL = { width: 400, height: 280, top: 70 };
const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd'];

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** A "nice" axis maximum above `max`: 1, 2 or 5 times a power of ten. */
function niceMax(max: number): number {
  if (!(max > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const m of [1, 2, 5, 10]) if (m * power >= max) return m * power;
  return 10 * power;
}

function panel(
  left: number,
  title: string,
  points: readonly PlotPoint[],
  value: (p: PlotPoint) => number,
  format: (v: number) => string,
): string {
  const histories = [...new Set(points.map((p) => p.history))].sort((a, b) => a - b);
  const levels = [...new Set(points.map((p) => p.concurrency))].sort((a, b) => a - b);
  const top = niceMax(Math.max(...points.map(value)));
  const x = (h: number) => left + 40 + (histories.indexOf(h) * (PANEL.width - 80)) / Math.max(1, histories.length - 1);
  const y = (v: number) => PANEL.top + PANEL.height - (v / top) * PANEL.height;
  const parts: string[] = [
    `<text x="${left + PANEL.width / 2}" y="${PANEL.top - 16}" text-anchor="middle" font-size="16" font-weight="bold">${esc(title)}</text>`,
    `<rect x="${left}" y="${PANEL.top}" width="${PANEL.width}" height="${PANEL.height}" fill="none" stroke="#444"/>`,
  ];
  for (let i = 0; i <= 5; i++) {
    const v = (top * i) / 5;
    parts.push(
      `<line x1="${left}" x2="${left + PANEL.width}" y1="${y(v)}" y2="${y(v)}" stroke="#ddd"/>`,
      `<text x="${left - 6}" y="${y(v) + 4}" text-anchor="end" font-size="12">${format(v)}</text>`,
    );
  }
  for (const h of histories) {
    parts.push(
      `<text x="${x(h)}" y="${PANEL.top + PANEL.height + 18}" text-anchor="middle" font-size="12">${h.toLocaleString('en-US')}</text>`,
    );
  }
  parts.push(
    `<text x="${left + PANEL.width / 2}" y="${PANEL.top + PANEL.height + 38}" text-anchor="middle" font-size="13">history rows per chat</text>`,
  );
  for (const [i, c] of levels.entries()) {
    const color = COLORS[i % COLORS.length];
    const series = points.filter((p) => p.concurrency === c).sort((a, b) => a.history - b.history);
    const path = series.map((p) => `${x(p.history).toFixed(1)},${y(value(p)).toFixed(1)}`).join(' ');
    parts.push(`<polyline points="${path}" fill="none" stroke="${color}" stroke-width="2.5"/>`);
    for (const p of series) {
      parts.push(`<circle cx="${x(p.history)}" cy="${y(value(p))}" r="4" fill="${color}"/>`);
    }
  }
  return parts.join('\n');
}

/** The SVG text of the plot. */
export function growthSvg(points: readonly PlotPoint[], subtitle = ''): string {
  const levels = [...new Set(points.map((p) => p.concurrency))].sort((a, b) => a - b);
  const legend = levels
    .map((c, i) => {
      const lx = 300 + i * 140;
      const color = COLORS[i % COLORS.length];
      return `<line x1="${lx}" x2="${lx + 24}" y1="${HEIGHT - 22}" y2="${HEIGHT - 22}" stroke="${color}" stroke-width="3"/><text x="${lx + 30}" y="${HEIGHT - 18}" font-size="13">${c} chat${c === 1 ? '' : 's'}</text>`;
    })
    .join('\n');
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" font-family="DejaVu Sans, Arial, sans-serif">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="white"/>`,
    `<text x="${WIDTH / 2}" y="24" text-anchor="middle" font-size="17">${esc(`Hermes growth: Telegram webhook, instant fake model${subtitle ? ` (${subtitle})` : ''}`)}</text>`,
    panel(
      70,
      'CPU ms per message (Hermes process)',
      points,
      (p) => p.round.cpuMsPerMsg,
      (v) => v.toFixed(1),
    ),
    panel(
      540,
      'messages per second',
      points,
      (p) => p.round.msgPerSec,
      (v) => v.toFixed(0),
    ),
    legend,
    '</svg>',
  ].join('\n');
}

/** Renders the plot to a PNG file at `path`. */
export function writeGrowthPlot(points: readonly PlotPoint[], path: string, subtitle = ''): void {
  const png = new Resvg(growthSvg(points, subtitle), {
    background: 'white',
    font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' },
  })
    .render()
    .asPng();
  writeFileSync(path, png);
}
