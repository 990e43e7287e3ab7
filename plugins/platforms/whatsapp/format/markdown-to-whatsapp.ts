/**
 * Markdown from the model → WhatsApp's own markup: *bold*, _italic_, ~strikethrough~, `inline code`,
 * ``` blocks, "- " and "1. " lists and "> " quotes. Headings become bold lines, links "text (url)",
 * pipe tables an aligned monospace block; code stays as written.
 */
import { type FencedBlock, renderMarkdownBlocks, renderTableLines } from '@hermes/plugin-sdk';

const FENCE = /^\s{0,3}(`{3,}|~{3,})(.*)$/;
const HEADING = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/;
const RULE = /^\s{0,3}([-*_])(?:\s*\1){2,}\s*$/;
const BULLET = /^(\s*)[-*+]\s+(?:\[([ xX])\]\s+)?(.*)$/;
const HORIZONTAL_LINE = '──────────';

/** holds a bold span's stars while the italic rule runs */
const BOLD = '\u0000';

/** Emphasis and links of one stretch of text that holds no inline code. */
function convertPlain(text: string): string {
  return (
    text
      // images and links: the text and where it points
      .replace(/!?\[([^\]]*)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g, (_m, label: string, url: string) =>
        label === '' || label === url ? url : `${label} (${url})`,
      )
      // bold first, held as BOLD so the italic rule below does not take its stars
      .replace(
        /\*\*(?=\S)([^*\n]*?\S)\*\*|__(?=\S)([^_\n]*?\S)__/g,
        (_m, a?: string, b?: string) => `${BOLD}${a ?? b}${BOLD}`,
      )
      .replace(/(^|[^\w*])\*(?=\S)([^*\n]*?\S)\*(?![\w*])/g, '$1_$2_')
      .replace(/~~(?=\S)([^~\n]*?\S)~~/g, '~$1~')
      .split(BOLD)
      .join('*')
  );
}

/** Converts a line's inline Markdown, leaving `code spans` untouched. */
export function convertInline(line: string): string {
  return line
    .split(/(`[^`\n]+`)/)
    .map((part, i) => (i % 2 === 1 ? part : convertPlain(part)))
    .join('');
}

const cellText = (cell: string): string => cell.replace(/\*\*|__|`/g, '');

function textLine(line: string): string {
  const heading = HEADING.exec(line);
  if (heading) {
    const text = convertInline((heading[1] ?? '').replace(/\*\*|__/g, ''));
    return text === '' ? '' : `*${text}*`;
  }
  if (RULE.test(line)) return HORIZONTAL_LINE;
  const bullet = BULLET.exec(line);
  if (bullet) {
    const box = bullet[2] === undefined ? '' : bullet[2] === ' ' ? '☐ ' : '☑ ';
    return `${bullet[1] ?? ''}- ${box}${convertInline(bullet[3] ?? '')}`;
  }
  return convertInline(line);
}

/** Converts a whole Markdown text. */
export function markdownToWhatsApp(markdown: string): string {
  return renderMarkdownBlocks(markdown, {
    fenceAt: (line) => {
      const m = FENCE.exec(line);
      return m?.[1] === undefined ? undefined : { marker: m[1], info: (m[2] ?? '').trim() };
    },
    code: (block: FencedBlock) => ['```', ...block.body, '```'].join('\n'),
    table: (rows) => ['```', ...renderTableLines(rows, cellText), '```'].join('\n'),
    text: (lines, index) => ({ out: textLine(lines[index] ?? ''), next: index + 1 }),
  });
}
