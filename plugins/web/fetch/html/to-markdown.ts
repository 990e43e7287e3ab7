/**
 * Renders a parsed (and pruned) HTML tree as Markdown or plain text: headings, paragraphs, links
 * and images with absolute URLs, emphasis, inline code and fenced code blocks (with the language
 * of a `language-x` class), nested ordered and unordered lists, block quotes, GitHub tables,
 * definition lists and line breaks. Whitespace is collapsed as a browser would, except inside
 * <pre>. Text mode keeps the structure (list markers, line breaks) but no markup, links or images.
 */
import { type HtmlElement, type HtmlNode, textContent } from './parse-html.js';

export type RenderFormat = 'markdown' | 'text';

interface Ctx {
  format: RenderFormat;
  /** base for relative links and images */
  base: string;
}

const BLOCK_CONTAINERS = new Set([
  'html',
  'body',
  '#document',
  'div',
  'section',
  'article',
  'main',
  'header',
  'footer',
  'figure',
  'figcaption',
  'address',
  'details',
  'summary',
  'center',
  'fieldset',
  'form',
  'legend',
  'hgroup',
  'search',
  'caption',
  'picture',
  'nav',
  'aside',
  'p',
  'frameset',
  'noframes',
  'dialog',
]);
const BLOCK_OTHERS = new Set([
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'menu',
  'li',
  'blockquote',
  'pre',
  'hr',
  'table',
  'dl',
  'dt',
  'dd',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'td',
  'th',
]);

function isBlock(tag: string): boolean {
  return BLOCK_CONTAINERS.has(tag) || BLOCK_OTHERS.has(tag);
}

/** Marks a line break inside inline text (a <br>), kept through whitespace collapsing (a private-use character). */
const BR = '\ue000';

function absolute(href: string, base: string): string | null {
  const h = href.trim();
  if (!h || h.startsWith('#') || /^(?:javascript|data|vbscript|about|blob):/i.test(h)) return null;
  try {
    return new URL(h, base).href;
  } catch {
    return null; // not a usable URL: the text is kept without the link
  }
}

/** Escapes text for Markdown: the characters that would start markup, leaving intraword `_` and `*` alone. */
function escapeMarkdown(text: string): string {
  return text
    .replace(/[\\`[\]]/g, '\\$&')
    .replace(/(^|\W)([*_])/g, '$1\\$2')
    .replace(/([*_])(?=\W|$)/g, '\\$1');
}

/** Collapses whitespace like a browser; `<br>` marks become newlines. */
function tidyInline(text: string): string {
  return text
    .replace(/[ \t\n\r\f\v]+/g, ' ')
    .replace(/ ?\ue000 ?/g, '\n')
    .replace(/^ +| +$/g, '')
    .replace(/^\n+|\n+$/g, '');
}

/** Escapes a paragraph's first characters when they would read as a heading, quote, list item or rule. */
function guardLineStart(text: string): string {
  return text.replace(
    /^(\s*)(#{1,6}\s|>|[-+]\s|(\d+)\.\s|={3,}|-{3,})/gm,
    (m, space: string, _all: string, num?: string) =>
      num !== undefined
        ? `${space}${num}\\.${m.slice(space.length + num.length + 1)}`
        : `${space}\\${m.slice(space.length)}`,
  );
}

function fenceFor(code: string, ch: '`' | '~' = '`'): string {
  const longest = Math.max(0, ...[...code.matchAll(ch === '`' ? /`+/g : /~+/g)].map((m) => m[0].length));
  return ch.repeat(Math.max(3, longest + 1));
}

function inlineCode(text: string): string {
  const code = text.replace(/\s+/g, ' ');
  if (!code.trim()) return '';
  const longest = Math.max(0, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  const pad = code.startsWith('`') || code.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${code}${pad}${ticks}`;
}

/** Wraps inline content with a mark, keeping outer spaces outside (`a ** b**` would not render). */
function wrap(content: string, mark: string): string {
  const m = /^(\s*)([\s\S]*?)(\s*)$/.exec(content);
  const inner = m?.[2] ?? '';
  if (!inner || inner === BR) return content;
  return `${m?.[1] ?? ''}${mark}${inner}${mark}${m?.[3] ?? ''}`;
}

function inline(nodes: readonly HtmlNode[], ctx: Ctx): string {
  let out = '';
  for (const node of nodes) out += inlineNode(node, ctx);
  return out;
}

function inlineNode(node: HtmlNode, ctx: Ctx): string {
  const md = ctx.format === 'markdown';
  if (node.type === 'text') {
    const text = node.text.replaceAll(BR, '');
    return md ? escapeMarkdown(text) : text;
  }
  const el = node;
  switch (el.tag) {
    case 'br':
      return BR;
    case 'wbr':
      return '';
    case 'img': {
      const alt = (el.attrs.alt ?? '').replace(/\s+/g, ' ').trim();
      if (!md) return alt;
      const src = absolute(el.attrs.src ?? '', ctx.base);
      if (!alt) return '';
      return src ? `![${escapeMarkdown(alt)}](${src.replace(/[()\s]/g, encodeURIComponent)})` : escapeMarkdown(alt);
    }
    case 'a': {
      const content = inline(el.children, ctx);
      const href = absolute(el.attrs.href ?? '', ctx.base);
      if (!md || !href || !tidyInline(content)) return content;
      const text = tidyInline(content).replace(/\n/g, ' ');
      const lead = /^\s/.test(content) ? ' ' : '';
      const trail = /\s$/.test(content) ? ' ' : '';
      return `${lead}[${text}](${href.replace(/[()\s]/g, encodeURIComponent)})${trail}`;
    }
    case 'strong':
    case 'b':
      return md ? wrap(inline(el.children, ctx), '**') : inline(el.children, ctx);
    case 'em':
    case 'i':
    case 'cite':
    case 'dfn':
      return md ? wrap(inline(el.children, ctx), '*') : inline(el.children, ctx);
    case 'del':
    case 's':
    case 'strike':
      return md ? wrap(inline(el.children, ctx), '~~') : inline(el.children, ctx);
    case 'code':
    case 'kbd':
    case 'samp':
    case 'tt':
      return md ? inlineCode(textContent(el)) : textContent(el).replace(/\s+/g, ' ');
    case 'q':
      return `“${inline(el.children, ctx)}”`;
    case 'sup':
      return md ? `^${inline(el.children, ctx)}` : inline(el.children, ctx);
    default:
      // a block inside inline content (a <div> in a <span>): a line break on each side
      return isBlock(el.tag) ? `${BR}${inline(el.children, ctx)}${BR}` : inline(el.children, ctx);
  }
}

/** Renders the children of a block container: runs of inline content become paragraphs. */
function blocks(el: HtmlElement, ctx: Ctx): string[] {
  const out: string[] = [];
  let run: HtmlNode[] = [];
  const flush = () => {
    if (run.length === 0) return;
    const text = tidyInline(inline(run, ctx));
    run = [];
    if (text) out.push(ctx.format === 'markdown' ? guardLineStart(text) : text);
  };
  for (const child of el.children) {
    if (child.type === 'element' && isBlock(child.tag)) {
      flush();
      out.push(...block(child, ctx));
    } else run.push(child);
  }
  flush();
  return out;
}

function indent(text: string, prefix: string, first = prefix): string {
  return text
    .split('\n')
    .map((line, i) => (line === '' ? line : `${i === 0 ? first : prefix}${line}`))
    .join('\n');
}

const LIST_MARKER = /^(?:[-*+]|\d+\.) /;

/** An item's blocks: a nested list follows its text directly (a tight list), other blocks after a blank line. */
function joinItem(parts: string[]): string {
  return parts.reduce(
    (acc, part, i) => (i === 0 ? part : `${acc}${LIST_MARKER.test(part) ? '\n' : '\n\n'}${part}`),
    '',
  );
}

function list(el: HtmlElement, ctx: Ctx): string[] {
  const ordered = el.tag === 'ol';
  const start = Number.parseInt(el.attrs.start ?? '1', 10);
  let n = Number.isFinite(start) ? start : 1;
  const items: string[] = [];
  for (const child of el.children) {
    if (child.type === 'text') {
      if (child.text.trim()) items.push(`- ${tidyInline(child.text)}`);
      continue;
    }
    const body = joinItem(child.tag === 'li' ? blocks(child, ctx) : block(child, ctx));
    if (!body.trim()) continue;
    if (child.tag !== 'li' && (child.tag === 'ul' || child.tag === 'ol')) {
      items.push(indent(body, '  '));
      continue;
    }
    const marker = ordered ? `${n++}. ` : '- ';
    items.push(indent(body, ' '.repeat(marker.length), marker));
  }
  return items.length > 0 ? [items.join('\n')] : [];
}

function cellText(cell: HtmlElement, ctx: Ctx): string {
  const text = blocks(cell, ctx).join(' ').replace(/\n+/g, ' ').trim();
  return ctx.format === 'markdown' ? text.replace(/\|/g, '\\|') : text;
}

function table(el: HtmlElement, ctx: Ctx): string[] {
  const rows: HtmlElement[] = [];
  const collect = (node: HtmlElement) => {
    for (const child of node.children) {
      if (child.type !== 'element') continue;
      if (child.tag === 'tr') rows.push(child);
      else if (child.tag === 'thead' || child.tag === 'tbody' || child.tag === 'tfoot') collect(child);
    }
  };
  collect(el);
  const caption = el.children.find((c): c is HtmlElement => c.type === 'element' && c.tag === 'caption');
  const grid = rows
    .map((tr) =>
      tr.children.filter((c): c is HtmlElement => c.type === 'element' && (c.tag === 'td' || c.tag === 'th')),
    )
    .filter((cells) => cells.length > 0);
  if (grid.length === 0) return blocks(el, ctx);
  const nested = grid.some((cells) => cells.some((c) => textContent(c) !== '' && hasTable(c)));
  const out: string[] = caption ? blocks(caption, ctx) : [];
  if (nested || ctx.format === 'text') {
    // layout tables and plain text: one line per row
    for (const cells of grid) {
      const line = cells
        .map((c) => cellText(c, ctx))
        .filter(Boolean)
        .join(' | ');
      if (line) out.push(line);
    }
    return ctx.format === 'text' ? [out.join('\n')] : out;
  }
  const width = Math.max(...grid.map((cells) => cells.reduce((w, c) => w + span(c), 0)));
  const texts = grid.map((cells) => {
    const row: string[] = [];
    for (const c of cells) {
      row.push(cellText(c, ctx));
      for (let k = 1; k < span(c); k++) row.push('');
    }
    while (row.length < width) row.push('');
    return row;
  });
  const [head = [], ...body] = texts;
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  out.push([line(head), line(head.map(() => '---')), ...body.map(line)].join('\n'));
  return out;
}

function span(cell: HtmlElement): number {
  const n = Number.parseInt(cell.attrs.colspan ?? '1', 10);
  return Number.isFinite(n) && n > 1 ? Math.min(n, 50) : 1;
}

function hasTable(el: HtmlElement): boolean {
  return el.children.some((c) => c.type === 'element' && (c.tag === 'table' || hasTable(c)));
}

function codeLanguage(pre: HtmlElement): string {
  const code = pre.children.find((c): c is HtmlElement => c.type === 'element' && c.tag === 'code');
  const classes = `${pre.attrs.class ?? ''} ${code?.attrs.class ?? ''}`;
  return /(?:^|\s)(?:language|lang)-([\w+#.-]+)/.exec(classes)?.[1] ?? '';
}

function block(el: HtmlElement, ctx: Ctx): string[] {
  const md = ctx.format === 'markdown';
  switch (el.tag) {
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6': {
      const text = tidyInline(inline(el.children, ctx)).replace(/\n/g, ' ');
      if (!text) return [];
      return [md ? `${'#'.repeat(Number(el.tag[1]))} ${text}` : text];
    }
    case 'ul':
    case 'ol':
    case 'menu':
      return list(el, ctx);
    case 'li':
      return list({ ...el, tag: 'ul', children: [el] }, ctx);
    case 'blockquote': {
      const inner = blocks(el, ctx).join('\n\n');
      if (!inner) return [];
      return [
        md
          ? inner
              .split('\n')
              .map((l) => (l ? `> ${l}` : '>'))
              .join('\n')
          : indent(inner, '  '),
      ];
    }
    case 'pre': {
      const code = textContent(el).replace(/^\n/, '').replace(/\s+$/, '');
      if (!code) return [];
      if (!md) return [code];
      const fence = fenceFor(code);
      return [`${fence}${codeLanguage(el)}\n${code}\n${fence}`];
    }
    case 'hr':
      return md ? ['---'] : [];
    case 'table':
      return table(el, ctx);
    case 'dl':
      return blocks(el, ctx);
    case 'dt': {
      const text = tidyInline(inline(el.children, ctx));
      return text ? [md ? wrap(text, '**') : text] : [];
    }
    case 'dd':
      return blocks(el, ctx).map((b) => indent(b, '  ', md ? ': ' : '  '));
    case 'tr':
    case 'thead':
    case 'tbody':
    case 'tfoot':
    case 'td':
    case 'th':
      return table({ ...el, tag: 'table', children: [el] }, ctx);
    default:
      return blocks(el, ctx);
  }
}

/** Renders an element (usually a page's content root) as Markdown or text; `base` resolves relative URLs. */
export function renderHtml(root: HtmlElement, format: RenderFormat, base: string): string {
  const out = blocks(root, { format, base })
    .map((b) => b.replace(/[ \t]+$/gm, ''))
    .filter((b) => b.trim() !== '')
    .join('\n\n');
  return out
    .replace(/\n{3,}/g, '\n\n')
    .replace(/\u00a0/g, ' ')
    .trim();
}
