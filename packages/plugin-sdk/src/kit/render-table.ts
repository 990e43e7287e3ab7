/**
 * Markdown pipe tables for platforms without table markup: find a table, split its cells, lay it
 * out as aligned monospace lines. Each platform wraps the lines in its own code block and escaping.
 */

const SEPARATOR_CELL = /^\s*:?-{1,}:?\s*$/;

/** The cells of one table row: edge pipes dropped, split on unescaped pipes, `\|` unescaped. */
export function tableCells(line: string): string[] {
  const trimmed = line
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '');
  return trimmed.split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, '|'));
}

/** True when `line` is the `|---|:---:|` row under a table header. */
export function isTableSeparator(line: string): boolean {
  return line.includes('-') && tableCells(line).every((cell) => SEPARATOR_CELL.test(cell));
}

/** True when lines[index] is a header row followed by a `---|---` separator row. */
export function isTableStart(lines: readonly string[], index: number): boolean {
  const header = lines[index];
  const separator = lines[index + 1];
  if (header === undefined || separator === undefined || !header.includes('|')) return false;
  if (!separator.includes('|') && !/^\s*\|/.test(header)) return false;
  return isTableSeparator(separator);
}

/** True when the line can continue a table. */
export function isTableRow(line: string | undefined): boolean {
  return line !== undefined && line.trim() !== '' && line.includes('|');
}

/**
 * The table starting at lines[index] (see isTableStart): its source lines (header, separator, body
 * rows) and the index after it; undefined when no table starts there.
 */
export function takeTable(lines: readonly string[], index: number): { rows: string[]; next: number } | undefined {
  if (!isTableStart(lines, index)) return undefined;
  const rows = [lines[index] ?? '', lines[index + 1] ?? ''];
  let next = index + 2;
  while (isTableRow(lines[next])) rows.push(lines[next++] ?? '');
  return { rows, next };
}

const width = (text: string): number => [...text].length;

/**
 * Lays out rows of cell texts (header first) as aligned lines: the header, a `---+---` rule, the
 * body rows. Widths count code points; trailing spaces are trimmed.
 */
export function layoutTable(rows: readonly (readonly string[])[]): string[] {
  const columns = Math.max(0, ...rows.map((row) => row.length));
  const widths = Array.from({ length: columns }, (_, column) =>
    Math.max(1, ...rows.map((row) => width(row[column] ?? ''))),
  );
  const format = (row: readonly string[]): string =>
    widths
      .map((columnWidth, column) => {
        const cell = row[column] ?? '';
        return cell + ' '.repeat(columnWidth - width(cell));
      })
      .join(' | ')
      .trimEnd();
  const [first = [], ...rest] = rows;
  const rule = widths.map((columnWidth) => '-'.repeat(columnWidth)).join('-+-');
  return [format(first), rule, ...rest.map(format)];
}

/**
 * A table's source lines (header, separator, body rows) as aligned lines, each cell's markdown
 * turned into its visible text by `cellText`.
 */
export function renderTableLines(lines: readonly string[], cellText: (markdown: string) => string): string[] {
  const [header = '', , ...body] = lines;
  return layoutTable([header, ...body].map((line) => tableCells(line).map(cellText)));
}
