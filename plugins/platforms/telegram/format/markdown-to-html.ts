/**
 * Markdown from the model → Telegram HTML: fenced code → <pre><code>, headings → bold lines, bullets →
 * "• ", quotes → <blockquote>, tables → monospace <pre>, inline markup per line. Only tags Telegram
 * supports are emitted, always balanced.
 */
import { renderMarkdownBlocks } from '@hermes/plugin-sdk';
import { escapeHtml } from './escape-html.js';
import { renderInline } from './inline.js';
import { renderTable } from './table.js';

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)[^`]*$/;
const HEADING = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/;
const RULE = /^ {0,3}([-*_])(?:\s*\1){2,}\s*$/;
const BULLET = /^(\s*)[-*+]\s+(?:\[([ xX])\]\s+)?(.*)$/;
const QUOTE = /^ {0,3}>\s?(.*)$/;

function codeBlock(lines: readonly string[], language: string): string {
  if (lines.length === 0) return '';
  const body = escapeHtml(lines.join('\n'));
  const lang = language.replace(/[^A-Za-z0-9_+#.-]/g, '');
  return lang === '' ? `<pre>${body}</pre>` : `<pre><code class="language-${lang}">${body}</code></pre>`;
}

function renderLine(line: string): string {
  const heading = HEADING.exec(line);
  if (heading !== null) return heading[1] ? `<b>${renderInline(heading[1])}</b>` : '';
  if (RULE.test(line)) return '──────────';
  const bullet = BULLET.exec(line);
  if (bullet !== null) {
    const box = bullet[2] === undefined ? '' : bullet[2] === ' ' ? '☐ ' : '☑ ';
    return `${bullet[1] ?? ''}• ${box}${renderInline(bullet[3] ?? '')}`;
  }
  return renderInline(line);
}

/** A run of `>` lines as one <blockquote>, its lines rendered like any other. */
function quoteBlock(lines: readonly string[], index: number): { out: string; next: number } {
  const quoted: string[] = [];
  let next = index;
  while (next < lines.length && QUOTE.test(lines[next] ?? '')) quoted.push(QUOTE.exec(lines[next++] ?? '')?.[1] ?? '');
  const inner = quoted.map(renderLine).join('\n');
  return { out: inner.trim() === '' ? '' : `<blockquote>${inner}</blockquote>`, next };
}

/** Converts a whole Markdown reply. */
export function markdownToTelegramHtml(markdown: string): string {
  return renderMarkdownBlocks(markdown, {
    fenceAt: (line) => {
      const fence = FENCE.exec(line);
      return fence?.[1] === undefined ? undefined : { marker: fence[1], info: fence[2] ?? '' };
    },
    code: (block) => codeBlock(block.body, block.info),
    table: renderTable,
    text: (lines, index) =>
      QUOTE.test(lines[index] ?? '')
        ? quoteBlock(lines, index)
        : { out: renderLine(lines[index] ?? ''), next: index + 1 },
  });
}
