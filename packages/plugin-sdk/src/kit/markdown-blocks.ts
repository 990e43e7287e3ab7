/**
 * Converting a Markdown reply block by block: fenced code, pipe tables, everything else. The walk
 * (line endings, where a fence or a table ends) is shared; each platform says what opens a fence
 * and renders each kind of block in its own markup.
 */
import { takeFenceBody } from './code-fence.js';
import { takeTable } from './render-table.js';

/** A fence's opening: its marker (the run of ` or ~) and its info string (often the language). */
export interface FenceOpening {
  marker: string;
  info: string;
}

/** A fenced code block as written. */
export interface FencedBlock extends FenceOpening {
  /** every source line: the opening fence, the body and the closing fence when there is one */
  lines: string[];
  body: string[];
}

export interface MarkdownBlockRenderer {
  /** the fence `line` opens, if any (the platforms differ on what may follow the marker) */
  fenceAt(line: string): FenceOpening | undefined;
  code(block: FencedBlock): string;
  /** a pipe table's source lines: header, separator, body rows */
  table(rows: string[]): string;
  /** what starts at lines[index] when it is neither: the output and the index after what it used (at least index + 1) */
  text(lines: readonly string[], index: number): { out: string; next: number };
}

/** Converts `markdown` (any line endings) with `render`; the blocks' outputs joined by newlines. */
export function renderMarkdownBlocks(markdown: string, render: MarkdownBlockRenderer): string {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const fence = render.fenceAt(lines[i] ?? '');
    if (fence !== undefined) {
      const block = takeFenceBody(lines, i + 1, fence.marker);
      out.push(render.code({ ...fence, lines: lines.slice(i, block.next), body: block.body }));
      i = block.next;
      continue;
    }
    const table = takeTable(lines, i);
    if (table !== undefined) {
      out.push(render.table(table.rows));
      i = table.next;
      continue;
    }
    const text = render.text(lines, i);
    out.push(text.out);
    i = Math.max(text.next, i + 1);
  }
  return out.join('\n');
}
