// Small display helpers.

export function fmtTime(t: string | number | null | undefined): string {
  if (t === null || t === undefined || t === '') return '—';
  const d = new Date(typeof t === 'number' && t < 1e12 ? t * 1000 : t);
  return Number.isNaN(d.getTime()) ? String(t) : d.toLocaleString();
}

export function fmtDuration(s: number): string {
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h} h ${m} min` : m > 0 ? `${m} min ${Math.floor(s % 60)} s` : `${Math.floor(s)} s`;
}

const LEVELS: Record<number, string> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };
const RANK: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 };

export function levelName(l: string | number): string {
  return typeof l === 'number' ? (LEVELS[l] ?? String(l)) : l;
}

export function levelRank(l: string | number): number {
  return typeof l === 'number' ? l : (RANK[l] ?? 30);
}
