/**
 * Markdown from the model as the text of a plain-text mail, in the conventions mail readers know:
 * `**bold**` as `*bold*`, links as `text <url>`, heading marks dropped, code blocks indented by
 * four spaces (their fences dropped), pipe tables laid out as aligned columns.
 */
import { renderMarkdownBlocks, renderTableLines } from '@hermes/plugin-sdk';

const inline = (line: string): string =>
  line
    .replace(/\[([^\]]+)\]\((\S+?)\)/g, (_m, text: string, url: string) =>
      text === url ? `<${url}>` : `${text} <${url}>`,
    )
    .replace(/\*\*(.+?)\*\*|__(.+?)__/g, (_m, a: string | undefined, b: string | undefined) => `*${a ?? b ?? ''}*`);

/** The plain text of a Markdown answer. */
export function markdownToPlain(markdown: string): string {
  return renderMarkdownBlocks(markdown, {
    fenceAt: (line) => {
      const match = /^\s*(`{3,}|~{3,})\s*(\S*)/.exec(line);
      return match ? { marker: match[1] ?? '```', info: match[2] ?? '' } : undefined;
    },
    code: (block) => block.body.map((l) => (l === '' ? '' : `    ${l}`)).join('\n'),
    table: (rows) => renderTableLines(rows, inline).join('\n'),
    text: (lines, index) => ({ out: inline((lines[index] ?? '').replace(/^#{1,6}\s+/, '')), next: index + 1 }),
  });
}
