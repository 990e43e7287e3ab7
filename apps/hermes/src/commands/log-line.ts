/** One pino JSON log line, made readable: `time LEVEL [component] message key=value ...`, coloured on a TTY. */
import { isLogLevel, LOG_LEVELS } from '@hermes/logging';

const NAMES: Record<number, string> = Object.fromEntries(
  Object.entries(LOG_LEVELS).map(([k, v]) => [v, k.toUpperCase()]),
);
const COLOURS: Record<number, string> = { 10: '90', 20: '36', 30: '32', 40: '33', 50: '31', 60: '35' };
/** pino's own fields, shown in their place rather than as key=value */
const HIDDEN = new Set(['level', 'time', 'pid', 'hostname', 'name', 'msg', 'component', 'platform', 'hook', 'plugin']);

export interface FormattedLine {
  level: number;
  text: string;
}

function value(v: unknown): string {
  if (typeof v === 'string') return /\s/.test(v) ? JSON.stringify(v) : v;
  if (typeof v === 'object' && v !== null && 'message' in v) return JSON.stringify((v as { message: unknown }).message);
  return JSON.stringify(v);
}

/** Formats a line; a line that is not pino JSON is shown as it is (level Infinity: never filtered out). */
export function formatLogLine(line: string, colour: boolean): FormattedLine | null {
  if (line.trim() === '') return null;
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return { level: Number.POSITIVE_INFINITY, text: line };
  }
  const level = typeof entry.level === 'number' ? entry.level : Number.POSITIVE_INFINITY;
  const time = typeof entry.time === 'number' ? new Date(entry.time).toISOString().replace('T', ' ').slice(0, 23) : '';
  const name = (NAMES[level] ?? 'LOG').padEnd(5);
  const scope = ['component', 'platform', 'hook', 'plugin']
    .map((k) => entry[k])
    .filter((v): v is string => typeof v === 'string')
    .join('/');
  const extras = Object.entries(entry)
    .filter(([k]) => !HIDDEN.has(k))
    .map(([k, v]) => `${k}=${value(v)}`)
    .join(' ');
  const paint = (code: string | undefined, s: string) => (colour && code ? `\u001b[${code}m${s}\u001b[0m` : s);
  const text = [
    paint('90', time),
    paint(COLOURS[level], name),
    scope ? paint('1', `[${scope}]`) : '',
    String(entry.msg ?? ''),
    extras ? paint('90', extras) : '',
  ]
    .filter(Boolean)
    .join(' ');
  return { level, text };
}

/** The minimum numeric level for a `--level` name; throws naming the valid ones. */
export function minLevel(name: string): number {
  const lower = name.toLowerCase();
  if (!isLogLevel(lower))
    throw new Error(`--level: expected one of ${Object.keys(LOG_LEVELS).join(', ')}, got "${name}"`);
  return LOG_LEVELS[lower];
}
