/**
 * What turndown does not do the way the fetch provider wants, as turndown rules: tight list
 * items (`- a`, `3. b`, nested items indented under the text), GitHub tables (the first row is the
 * header; layout tables holding tables become one line per row), ~~strikethrough~~ and bold
 * definition terms; and for plain text, the rules that drop the markup but keep the structure.
 */
import type TurndownService from 'turndown';
import type { DomElement, DomNode } from './to-dom.js';

type Service = InstanceType<typeof TurndownService>;

/** Separators of the cells and rows a table rule collects (private-use characters). */
const CELL = '\ue001';
const ROW = '\ue002';

function listItem(content: string, node: DomElement, options: { bulletListMarker?: string }): string {
  const parent = node.parentNode as DomElement | null;
  let prefix = `${options.bulletListMarker ?? '-'} `;
  if (parent?.nodeName === 'OL') {
    const start = Number.parseInt(parent.getAttribute('start') ?? '1', 10);
    const index = Array.prototype.indexOf.call(parent.children, node);
    prefix = `${(Number.isFinite(start) ? start : 1) + index}. `;
  }
  const body = content
    .replace(/^\n+/, '')
    .replace(/\n+$/, '\n')
    .replace(/\n(?=.)/g, `\n${' '.repeat(prefix.length)}`);
  return prefix + body + (node.nextSibling && !body.endsWith('\n') ? '\n' : '');
}

function span(cell: DomElement): number {
  const n = Number.parseInt(cell.getAttribute('colspan') ?? '1', 10);
  return Number.isFinite(n) && n > 1 ? Math.min(n, 50) : 1;
}

function enclosingTable(node: DomNode): DomElement | null {
  for (let p = node.parentNode; p; p = p.parentNode) if (p.nodeName === 'TABLE') return p as DomElement;
  return null;
}

/** A table holding a table, or held by one: page layout, not data; rendered one line per row. */
function isLayout(table: DomElement): boolean {
  let layout = layoutTables.get(table);
  if (layout === undefined) {
    layout = Boolean(table.querySelector('table')) || enclosingTable(table) !== null;
    layoutTables.set(table, layout); // asked once per cell: cached, or a big table costs its size squared
  }
  return layout;
}
const layoutTables = new WeakMap<DomElement, boolean>();

/** Renders the rows collected from a table's cells, as a GitHub table or one line per row. */
function table(content: string, node: DomElement, markdown: boolean): string {
  const rows = content
    .split(ROW)
    .map((row) => row.split(CELL).slice(0, -1))
    .filter((cells) => cells.length > 0);
  const caption = (node.querySelector('caption')?.textContent ?? '').replace(/\s+/g, ' ').trim();
  const lead = caption ? `${caption}\n\n` : '';
  if (rows.length === 0) return `\n\n${lead}${content.replaceAll(CELL, ' ').replaceAll(ROW, '\n').trim()}\n\n`;
  if (!markdown || isLayout(node)) {
    // plain text and layout tables: one line per row
    const lines = rows.map((cells) => cells.filter((c) => c !== '').join(' | ')).filter(Boolean);
    return `\n\n${lead}${lines.join(markdown ? '\n\n' : '\n')}\n\n`;
  }
  const width = Math.max(...rows.map((cells) => cells.length));
  const line = (cells: string[]) => `| ${[...cells, ...Array(width - cells.length).fill('')].join(' | ')} |`;
  const [head = [], ...body] = rows;
  return `\n\n${lead}${[line(head), line(Array(width).fill('---')), ...body.map(line)].join('\n')}\n\n`;
}

function tableRules(service: Service, markdown: boolean): void {
  service.addRule('tableCell', {
    filter: ['td', 'th'],
    replacement: (content: string, node: DomElement) => {
      const text = content.replace(/\s*\n\s*/g, ' ').trim();
      const table = enclosingTable(node);
      const cell = markdown && table && !isLayout(table) ? text.replace(/\|/g, '\\|') : text;
      return `${cell}${CELL}${CELL.repeat(span(node) - 1)}`;
    },
  });
  service.addRule('tableRow', { filter: 'tr', replacement: (content: string) => `${content}${ROW}` });
  service.addRule('tableSection', { filter: ['thead', 'tbody', 'tfoot'], replacement: (content: string) => content });
  service.addRule('tableCaption', { filter: 'caption', replacement: () => '' });
  service.addRule('table', {
    filter: 'table',
    replacement: (content: string, node: DomElement) => table(content, node, markdown),
  });
}

/** The rules of the Markdown renderer. */
export function markdownRules(service: Service): void {
  service.addRule('listItem', { filter: 'li', replacement: listItem });
  service.addRule('strikethrough', {
    filter: ['del', 's', 'strike'],
    replacement: (content: string) => (content.trim() ? `~~${content}~~` : content),
  });
  service.addRule('definitionTerm', {
    filter: 'dt',
    replacement: (content: string) => (content.trim() ? `\n\n**${content.trim()}**\n\n` : ''),
  });
  tableRules(service, true);
}

const INLINE_MARKUP = ['strong', 'b', 'em', 'i', 'cite', 'dfn', 'del', 's', 'strike', 'code', 'kbd', 'samp', 'tt', 'a'];
const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];

/** The rules of the plain-text renderer: the structure without the markup. */
export function textRules(service: Service): void {
  service.escape = (text: string) => text;
  service.addRule('listItem', { filter: 'li', replacement: listItem });
  service.addRule('textInline', { filter: INLINE_MARKUP as never, replacement: (content: string) => content });
  service.addRule('textImage', {
    filter: 'img',
    replacement: (_content: string, node: DomElement) => node.getAttribute('alt') ?? '',
  });
  service.addRule('textHeading', { filter: HEADINGS as never, replacement: (content: string) => `\n\n${content}\n\n` });
  service.addRule('textQuote', {
    filter: 'blockquote',
    replacement: (content: string) => `\n\n${content.trim().replace(/^(?=.)/gm, '  ')}\n\n`,
  });
  service.addRule('textCode', {
    filter: 'pre',
    replacement: (_content: string, node: DomNode) => `\n\n${(node.textContent ?? '').replace(/\s+$/, '')}\n\n`,
  });
  service.addRule('textRule', { filter: 'hr', replacement: () => '\n\n' });
  tableRules(service, false);
}
