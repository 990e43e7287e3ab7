/**
 * Markdown from the model as Signal text: Signal shows no markup, so emphasis markers, heading
 * marks and code fences are dropped (the code kept as is), links become `text (url)`, and pipe
 * tables are laid out as aligned columns.
 */
import { renderTableLines, takeTable } from '@hermes/plugin-sdk';

const inline = (line: string): string =>
  line
    .replace(/\[([^\]]+)\]\((\S+?)\)/g, '$1 ($2)')
    .replace(/\*\*(.+?)\*\*|__(.+?)__/g, '$1$2')
    .replace(/`([^`]+)`/g, '$1');

/** The plain text of a Markdown answer. */
export function markdownToPlain(markdown: string): string {
  const lines = markdown.split('\n');
  const out: string[] = [];
  let inFence = false;
  for (let i = 0; i < lines.length; ) {
    const line = lines[i] ?? '';
    if (/^\s*(```|~~~)/.test(line)) {
      inFence = !inFence;
      i += 1;
      continue;
    }
    if (inFence) {
      out.push(line);
      i += 1;
      continue;
    }
    const table = takeTable(lines, i);
    if (table !== undefined) {
      out.push(...renderTableLines(table.rows, inline));
      i = table.next;
      continue;
    }
    out.push(inline(line.replace(/^#{1,6}\s+/, '')));
    i += 1;
  }
  return out.join('\n');
}
