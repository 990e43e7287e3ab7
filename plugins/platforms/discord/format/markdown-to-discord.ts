/**
 * Markdown from the model → Discord markdown. Discord renders most of it as is; what it does not is
 * adapted: tables → aligned code blocks, headings deeper than ### → bold lines, `__bold__` (underline
 * on Discord) → `**bold**`, rules → a line of ─, task boxes → ☐/☑, images → links, `>quote` → `> quote`,
 * `<br>` → a line break. Code blocks and code spans pass through untouched.
 */
import { renderMarkdownBlocks } from '@hermes/plugin-sdk';
import { renderTable } from './table.js';

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const DEEP_HEADING = /^ {0,3}#{4,6}\s+(.*?)(?:\s+#+)?\s*$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const TASK = /^(\s*(?:[-*+]|\d+[.)])\s+)\[([ xX])\]\s+/;
const QUOTE_WITHOUT_SPACE = /^( {0,3}(?:>\s?)*>)(?=[^\s>])/;
const CODE_SPAN = /(`+)[\s\S]*?[^`]\1(?!`)|`+/g;
const MARK = '\uE000';

/** Rewrites inline markup outside code spans on one line. */
function inline(line: string): string {
  const spans: string[] = [];
  const parked = line.replaceAll(MARK, '').replace(CODE_SPAN, (span) => {
    spans.push(span);
    return `${MARK}${spans.length - 1}${MARK}`;
  });
  const rewritten = parked
    .replace(/(^|[^\\\w_])__(?=\S)([^_]*?\S)__(?![\w_])/g, '$1**$2**')
    .replace(/!\[([^\]]*)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g, (_, alt: string, url: string) =>
      alt.trim() === '' ? `<${url}>` : `[${alt}](${url})`,
    )
    .replace(/<br\s*\/?>/gi, '\n');
  return rewritten.replace(new RegExp(`${MARK}(\\d+)${MARK}`, 'g'), (_, index: string) => spans[Number(index)] ?? '');
}

function renderLine(line: string): string {
  const heading = DEEP_HEADING.exec(line);
  if (heading !== null) return heading[1] ? `**${inline(heading[1])}**` : '';
  if (RULE.test(line)) return '──────────';
  const task = TASK.exec(line);
  const boxed = task === null ? line : `${task[1]}${task[2] === ' ' ? '☐' : '☑'} ${line.slice(task[0].length)}`;
  return inline(boxed.replace(QUOTE_WITHOUT_SPACE, '$1 '));
}

/** Converts a whole Markdown reply. */
export function markdownToDiscord(markdown: string): string {
  return renderMarkdownBlocks(markdown, {
    fenceAt: (line) => {
      const marker = FENCE.exec(line)?.[1];
      return marker === undefined ? undefined : { marker, info: '' };
    },
    // code blocks pass through untouched, fences included
    code: (block) => block.lines.join('\n'),
    table: renderTable,
    text: (lines, index) => ({ out: renderLine(lines[index] ?? ''), next: index + 1 }),
  });
}
