/** Markdown tables → a code block with padded columns (Discord renders no table markup). */

const SEPARATOR_CELL = /^\s*:?-{1,}:?\s*$/;
const CODE_SPAN = /(`+)([\s\S]*?[^`])\1(?!`)/g;
const LINK = /!?\[((?:[^[\]\\]|\\.)*)\]\(\s*((?:[^()\s]|\([^()\s]*\))+)(?:\s+"[^"]*")?\s*\)/g;

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

/** The visible text of a cell: code ticks, link targets, emphasis markers and escapes removed. */
export function cellText(markdown: string): string {
  return markdown
    .replace(CODE_SPAN, (_, _ticks: string, code: string) => code.trim())
    .replace(LINK, (_, label: string, url: string) => label || url)
    .replace(/(\*\*|__|~~)(?=\S)([\s\S]*?\S)\1/g, '$2')
    .replace(/(^|[^\w*])\*(?=\S)([^*]*?\S)\*(?!\w)/g, '$1$2')
    .replace(/\\([!-/:-@[-`{-~])/g, '$1')
    .replaceAll('`', "'");
}

/** Renders the header, a rule and the body rows as an aligned code block. */
export function renderTable(lines: readonly string[]): string {
  const [header = '', , ...body] = lines;
  const rows = [header, ...body].map((line) => tableCells(line).map(cellText));
  const columns = Math.max(...rows.map((row) => row.length));
  const widths = Array.from({ length: columns }, (_, column) =>
    Math.max(1, ...rows.map((row) => [...(row[column] ?? '')].length)),
  );
  const format = (row: string[]): string =>
    widths
      .map((width, column) => {
        const cell = row[column] ?? '';
        return cell + ' '.repeat(width - [...cell].length);
      })
      .join(' | ')
      .trimEnd();
  const [first = [], ...rest] = rows;
  const rule = widths.map((width) => '-'.repeat(width)).join('-+-');
  return ['```', format(first), rule, ...rest.map(format), '```'].join('\n');
}
