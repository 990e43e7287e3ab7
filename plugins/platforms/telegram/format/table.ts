/** Markdown tables → a monospace <pre> block with padded columns (Telegram has no table markup). */
import { escapeHtml } from './escape-html.js';
import { inlineToPlain } from './inline.js';

const SEPARATOR_CELL = /^\s*:?-{1,}:?\s*$/;

/** The cells of one table row: edge pipes dropped, split on unescaped pipes. */
export function tableCells(line: string): string[] {
  const trimmed = line
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '');
  return trimmed.split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, '|'));
}

/** True when lines[index] is a header row followed by a `---|---` separator row. */
export function isTableStart(lines: readonly string[], index: number): boolean {
  const header = lines[index];
  const separator = lines[index + 1];
  if (header === undefined || separator === undefined || !header.includes('|') || !separator.includes('-'))
    return false;
  if (!separator.includes('|') && !/^\s*\|/.test(header)) return false;
  return tableCells(separator).every((cell) => SEPARATOR_CELL.test(cell));
}

/** True when the line can continue a table. */
export function isTableRow(line: string | undefined): boolean {
  return line !== undefined && line.trim() !== '' && line.includes('|');
}

/** Renders the header, the separator and the body rows as aligned monospace text. */
export function renderTable(lines: readonly string[]): string {
  const [header = '', , ...body] = lines;
  const rows = [header, ...body].map((line) => tableCells(line).map(inlineToPlain));
  const columns = Math.max(...rows.map((row) => row.length));
  const widths = Array.from({ length: columns }, (_, column) =>
    Math.max(1, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const format = (row: string[]): string =>
    widths
      .map((width, column) => (row[column] ?? '').padEnd(width))
      .join(' | ')
      .trimEnd();
  const [first = [], ...rest] = rows;
  const rule = widths.map((width) => '-'.repeat(width)).join('-+-');
  return `<pre>${escapeHtml([format(first), rule, ...rest.map(format)].join('\n'))}</pre>`;
}
