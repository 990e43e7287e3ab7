/** The human-readable plugin table of `hermes plugins list`. */
import { firstLine } from '../console-lines.js';
import type { PluginListEntry } from './plugins-entry.js';

const HEADERS = ['KEY', 'VERSION', 'STATE', 'SOURCE', 'TOOLS', 'HOOKS', 'ERROR'] as const;

function cells(e: PluginListEntry): string[] {
  const list = (items: string[]) => (items.length > 0 ? items.join(',') : '-');
  // one row per plugin: the error's first line (the log file has the rest)
  return [e.key, e.version ?? '-', e.state, e.source, list(e.tools), list(e.hooks), firstLine(e.error ?? '')];
}

/** Renders entries as aligned columns (the last column, the error, is not padded). */
export function renderPluginTable(entries: readonly PluginListEntry[]): string {
  const rows = [[...HEADERS], ...entries.map(cells)];
  const widths = HEADERS.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows
    .map((r) =>
      r
        .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
        .join('  ')
        .trimEnd(),
    )
    .map((line) => `${line}\n`)
    .join('');
}
