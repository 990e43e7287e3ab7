/** Markdown tables → a monospace <pre> block with padded columns (Telegram has no table markup). */
import { renderTableLines } from '@hermes/plugin-sdk';
import { escapeHtml } from './escape-html.js';
import { inlineToPlain } from './inline.js';

/** Renders the header, the separator and the body rows as aligned monospace text. */
export function renderTable(lines: readonly string[]): string {
  return `<pre>${escapeHtml(renderTableLines(lines, inlineToPlain).join('\n'))}</pre>`;
}
