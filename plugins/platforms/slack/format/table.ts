/** Markdown pipe tables → a monospace block with aligned columns (Slack has no tables). */
import { escapeMrkdwn } from './escape-mrkdwn.js';

const SEPARATOR = /^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*$/;

/** True when `line` looks like a table row (has a pipe). */
export function isTableRow(line: string): boolean {
  return line.includes('|') && line.trim() !== '';
}

/** True when `line` is the `|---|:---:|` line under a table header. */
export function isTableSeparator(line: string): boolean {
  return SEPARATOR.test(line) && line.includes('-');
}

function cells(line: string): string[] {
  const trimmed = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  return trimmed.split(/(?<!\\)\|/).map((cell) =>
    cell
      .trim()
      .replace(/\\\|/g, '|')
      .replace(/\*\*|__|`/g, ''),
  );
}

/** Renders header + rows (the separator line excluded) as a ``` block, columns padded to width. */
export function renderTable(header: string, rows: readonly string[]): string {
  const grid = [cells(header), ...rows.map(cells)];
  const columns = Math.max(...grid.map((row) => row.length));
  const widths = Array.from({ length: columns }, (_, i) => Math.max(...grid.map((row) => (row[i] ?? '').length)));
  const line = (row: string[]): string =>
    widths
      .map((width, i) => (row[i] ?? '').padEnd(width))
      .join(' | ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(Math.max(1, width))).join('-+-');
  const [head = [], ...body] = grid;
  return ['```', escapeMrkdwn(line(head)), rule, ...body.map((row) => escapeMrkdwn(line(row))), '```'].join('\n');
}
