/**
 * Markdown from the model → Slack mrkdwn. Block by block: fenced code kept (language tag dropped,
 * Slack shows it as text), headings as bold lines, bullets as •, ordered lists and quotes kept,
 * rules as a line, pipe tables as an aligned monospace block; inline pieces via convertInline.
 */
import { isTableRow, isTableSeparator } from '@hermes/plugin-sdk';
import { escapeMrkdwn } from './escape-mrkdwn.js';
import { convertInline } from './inline.js';
import { renderTable } from './table.js';

const FENCE = /^\s{0,3}(`{3,}|~{3,})(.*)$/;
const HEADING = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/;
const RULE = /^\s{0,3}([-*_])(?:\s*\1){2,}\s*$/;
const BULLET = /^(\s*)[-*+]\s+(?:\[([ xX])\]\s+)?(.*)$/;
const ORDERED = /^(\s*)(\d{1,9})[.)]\s+(.*)$/;
const QUOTE = /^\s{0,3}>\s?(.*)$/;

const HORIZONTAL_LINE = '──────────';

function bulletFor(checked: string | undefined): string {
  if (checked === undefined) return '•';
  return checked === ' ' ? '☐' : '☑';
}

/** Converts a whole Markdown text; output is valid mrkdwn with &, < and > escaped outside links. */
export function markdownToMrkdwn(markdown: string): string {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? '';
    const fence = FENCE.exec(line);
    if (fence?.[1] !== undefined) {
      const marker = fence[1];
      const body: string[] = [];
      let j = i + 1;
      for (; j < lines.length; j += 1) {
        const candidate = lines[j] ?? '';
        const closing = new RegExp(`^\\s{0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}\\s*$`);
        if (closing.test(candidate)) break;
        body.push(candidate);
      }
      out.push(`\`\`\`\n${escapeMrkdwn(body.join('\n'))}\n\`\`\``);
      i = j; // past the closing fence (or the end, for an unclosed one)
      continue;
    }
    const next = lines[i + 1];
    if (isTableRow(line) && next !== undefined && isTableSeparator(next)) {
      const rows: string[] = [];
      let j = i + 2;
      for (; j < lines.length && isTableRow(lines[j] ?? ''); j += 1) rows.push(lines[j] ?? '');
      out.push(renderTable(line, rows));
      i = j - 1;
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      // the whole line is bold already: emphasis inside it would break Slack's single bold span
      const text = convertInline((heading[1] ?? '').replace(/\*\*|__/g, ''));
      out.push(text === '' ? '' : `*${text}*`);
      continue;
    }
    if (RULE.test(line)) {
      out.push(HORIZONTAL_LINE);
      continue;
    }
    const bullet = BULLET.exec(line);
    if (bullet) {
      out.push(`${bullet[1] ?? ''}${bulletFor(bullet[2])} ${convertInline(bullet[3] ?? '')}`);
      continue;
    }
    const ordered = ORDERED.exec(line);
    if (ordered) {
      out.push(`${ordered[1] ?? ''}${ordered[2]}. ${convertInline(ordered[3] ?? '')}`);
      continue;
    }
    const quote = QUOTE.exec(line);
    if (quote) {
      out.push(`>${quote[1] === '' ? '' : ` ${convertInline(quote[1] ?? '')}`}`);
      continue;
    }
    out.push(convertInline(line));
  }
  return out.join('\n');
}
