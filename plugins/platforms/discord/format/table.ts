/** Markdown tables → a code block with padded columns (Discord renders no table markup). */
import { renderTableLines } from '@hermes/plugin-sdk';

const CODE_SPAN = /(`+)([\s\S]*?[^`])\1(?!`)/g;
const LINK = /!?\[((?:[^[\]\\]|\\.)*)\]\(\s*((?:[^()\s]|\([^()\s]*\))+)(?:\s+"[^"]*")?\s*\)/g;

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
  return ['```', ...renderTableLines(lines, cellText), '```'].join('\n');
}
