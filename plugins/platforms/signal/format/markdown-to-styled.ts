/**
 * Markdown from the model as a Signal message: the text without markup and Signal's text styles
 * over it. Headings become bold lines, fenced code a monospace block (the fence lines dropped, the
 * code as written), pipe tables aligned columns in a monospace block, and every other line's inline
 * Markdown bold, italic, strikethrough, spoiler and monospace stretches (inline-styles.ts); lists
 * and quotes keep their `-` and `>`.
 */
import { renderTableLines, takeFenceBody, takeTable } from '@hermes/plugin-sdk';
import { renderInline } from './inline-styles.js';
import { StyledBuilder, type StyledText } from './styled-text.js';

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/;

/** The visible text of a table cell's inline Markdown (the table is monospace as a whole). */
function cellText(markdown: string): string {
  const cell = new StyledBuilder();
  renderInline(markdown, cell);
  return cell.text;
}

/** Converts a whole Markdown answer. */
export function markdownToStyled(markdown: string): StyledText {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const out = new StyledBuilder();
  let first = true;
  /** starts an output line: a newline before every one but the first */
  const line = (): void => {
    if (!first) out.append('\n');
    first = false;
  };
  for (let i = 0; i < lines.length; ) {
    const text = lines[i] ?? '';
    const fence = FENCE.exec(text)?.[1];
    if (fence !== undefined) {
      const block = takeFenceBody(lines, i + 1, fence);
      i = block.next;
      const code = block.body.join('\n');
      if (code.trim() === '') continue;
      line();
      out.styled('MONOSPACE', () => out.append(code));
      continue;
    }
    const table = takeTable(lines, i);
    if (table !== undefined) {
      i = table.next;
      line();
      out.styled('MONOSPACE', () => out.append(renderTableLines(table.rows, cellText).join('\n')));
      continue;
    }
    i += 1;
    line();
    const heading = HEADING.exec(text);
    if (heading !== null) out.styled('BOLD', () => renderInline(heading[1] ?? '', out));
    else renderInline(text, out);
  }
  return out.result();
}
