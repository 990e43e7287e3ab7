/**
 * Markdown from the model → Telegram HTML: fenced code → <pre><code>, headings → bold lines, bullets →
 * "• ", quotes → <blockquote>, tables → monospace <pre>, inline markup per line. Only tags Telegram
 * supports are emitted, always balanced.
 */
import { takeFenceBody, takeTable } from '@hermes/plugin-sdk';
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

/** Converts a whole Markdown reply. */
export function markdownToTelegramHtml(markdown: string): string {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    const fence = FENCE.exec(line);
    if (fence?.[1] !== undefined) {
      const block = takeFenceBody(lines, i + 1, fence[1]);
      out.push(codeBlock(block.body, fence[2] ?? ''));
      i = block.next;
      continue;
    }
    const table = takeTable(lines, i);
    if (table !== undefined) {
      out.push(renderTable(table.rows));
      i = table.next;
      continue;
    }
    if (QUOTE.test(line)) {
      const quoted: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i] ?? '')) quoted.push(QUOTE.exec(lines[i++] ?? '')?.[1] ?? '');
      const inner = quoted.map(renderLine).join('\n');
      out.push(inner.trim() === '' ? '' : `<blockquote>${inner}</blockquote>`);
      continue;
    }
    out.push(renderLine(line));
    i += 1;
  }
  return out.join('\n');
}
