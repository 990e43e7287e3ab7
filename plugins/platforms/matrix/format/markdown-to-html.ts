/**
 * Markdown from the model → Matrix HTML (`formatted_body`, format `org.matrix.custom.html`):
 * fenced code → <pre><code>, headings → <h3>..<h6>, bullets → "• " lines, quotes → <blockquote>,
 * tables → monospace <pre>, inline markup per line. Lines end with <br> (HTML collapses newlines),
 * except inside <pre>. Only tags of the spec's recommended subset are emitted, always balanced.
 */
import { renderMarkdownBlocks, renderTableLines } from '@hermes/plugin-sdk';
import { escapeHtml, inlineToPlain, renderInline } from './inline.js';

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)[^`]*$/;
const HEADING = /^ {0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/;
const RULE = /^ {0,3}([-*_])(?:\s*\1){2,}\s*$/;
const BULLET = /^(\s*)[-*+]\s+(?:\[([ xX])\]\s+)?(.*)$/;
const QUOTE = /^ {0,3}>\s?(.*)$/;
/** a newline inside <pre> while the blocks are joined (a private-use character, removed from the input first) */
const PRE_NL = '\uE001';

function codeBlock(lines: readonly string[], language: string): string {
  if (lines.length === 0) return '';
  const body = escapeHtml(lines.join(PRE_NL));
  const lang = language.replace(/[^A-Za-z0-9_+#.-]/g, '');
  return lang === '' ? `<pre><code>${body}</code></pre>` : `<pre><code class="language-${lang}">${body}</code></pre>`;
}

/** One line; `block` is true for a line that is a block of its own (a heading, a rule). */
function renderLine(line: string): { html: string; block: boolean } {
  const heading = HEADING.exec(line);
  if (heading !== null) {
    const level = Math.max(3, heading[1]?.length ?? 3);
    return { html: heading[2] ? `<h${level}>${renderInline(heading[2])}</h${level}>` : '', block: true };
  }
  if (RULE.test(line)) return { html: '<hr>', block: true };
  const bullet = BULLET.exec(line);
  if (bullet !== null) {
    const box = bullet[2] === undefined ? '' : bullet[2] === ' ' ? '☐ ' : '☑ ';
    const indent = '&nbsp;'.repeat((bullet[1] ?? '').length);
    return { html: `${indent}• ${box}${renderInline(bullet[3] ?? '')}`, block: false };
  }
  return { html: renderInline(line), block: false };
}

/** Lines joined with <br>, none after a block element. */
function joinLines(lines: readonly string[]): string {
  let out = '';
  lines.forEach((line, i) => {
    const rendered = renderLine(line);
    out += rendered.html;
    if (i < lines.length - 1 && !rendered.block) out += '<br>';
  });
  return out;
}

/** A run of `>` lines as one <blockquote>. */
function quoteBlock(lines: readonly string[], index: number): { out: string; next: number } {
  const quoted: string[] = [];
  let next = index;
  while (next < lines.length && QUOTE.test(lines[next] ?? '')) quoted.push(QUOTE.exec(lines[next++] ?? '')?.[1] ?? '');
  const inner = joinLines(quoted);
  return { out: inner.trim() === '' ? '' : `<blockquote>${inner}</blockquote>`, next };
}

/** A run of ordinary lines (up to a fence, a table or a quote) as one piece. */
function textBlock(lines: readonly string[], index: number): { out: string; next: number } {
  let next = index;
  const run: string[] = [];
  while (next < lines.length) {
    const line = lines[next] ?? '';
    if (next > index && (FENCE.test(line) || QUOTE.test(line) || /^\s*\|/.test(line))) break;
    run.push(line);
    next += 1;
  }
  return { out: joinLines(run), next };
}

/** Converts a whole Markdown reply. */
export function markdownToMatrixHtml(markdown: string): string {
  const html = renderMarkdownBlocks(markdown.replaceAll(PRE_NL, ''), {
    fenceAt: (line) => {
      const fence = FENCE.exec(line);
      return fence?.[1] === undefined ? undefined : { marker: fence[1], info: fence[2] ?? '' };
    },
    code: (block) => codeBlock(block.body, block.info),
    table: (rows) => `<pre><code>${escapeHtml(renderTableLines(rows, inlineToPlain).join(PRE_NL))}</code></pre>`,
    text: (lines, index) => (QUOTE.test(lines[index] ?? '') ? quoteBlock(lines, index) : textBlock(lines, index)),
  });
  // renderMarkdownBlocks joins blocks with newlines: between two blocks a <br> unless one is a block element
  const joined = html.split('\n').reduce((acc, piece, i) => {
    if (i === 0) return piece;
    const blockEdge = /<\/(pre|blockquote|h\d)>$|<hr>$/.test(acc) || /^<(pre|blockquote|h\d|hr)/.test(piece);
    return acc + (blockEdge ? '' : '<br>') + piece;
  }, '');
  return joined.replaceAll(PRE_NL, '\n');
}
