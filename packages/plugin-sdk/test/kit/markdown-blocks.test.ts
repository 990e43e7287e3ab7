// The kit's Markdown block walk: fences closed by CommonMark's rule, tables, the rest line by line.
import { describe, expect, it } from 'vitest';
import { closesFence, type MarkdownBlockRenderer, renderMarkdownBlocks, takeFenceBody } from '../../src/index.js';

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*(\S*)/;

const tagged: MarkdownBlockRenderer = {
  fenceAt: (line) => {
    const match = FENCE.exec(line);
    return match?.[1] === undefined ? undefined : { marker: match[1], info: match[2] ?? '' };
  },
  code: (block) => `[code ${block.info || '-'}: ${block.body.join('/')} (${block.lines.length} lines)]`,
  table: (rows) => `[table of ${rows.length}]`,
  text: (lines, index) => ({ out: (lines[index] ?? '').toUpperCase(), next: index + 1 }),
};

describe('closesFence and takeFenceBody', () => {
  it('closes only with the same character, at least as long, nothing after', () => {
    expect(['```', '````', '  ```  ', '~~~', '``', '``` x', '    ```'].map((line) => closesFence(line, '```'))).toEqual(
      [true, true, true, false, false, false, false],
    );
    expect(takeFenceBody(['```', 'a', '```', 'b'], 1, '```')).toEqual({ body: ['a'], closed: true, next: 3 });
    expect(takeFenceBody(['```', 'a', 'b'], 1, '```')).toEqual({ body: ['a', 'b'], closed: false, next: 3 });
  });
});

describe('renderMarkdownBlocks', () => {
  it('walks fences, tables and lines, whatever the line endings', () => {
    const markdown = 'hi\r\n```ts\r\nconst a = 1;\r\n~~~\r\n```\r\n| a | b |\n|---|---|\n| 1 | 2 |\nbye';
    expect(renderMarkdownBlocks(markdown, tagged).split('\n')).toEqual([
      'HI',
      '[code ts: const a = 1;/~~~ (4 lines)]',
      '[table of 3]',
      'BYE',
    ]);
  });

  it('runs an unclosed fence to the end, and always moves on', () => {
    expect(renderMarkdownBlocks('~~~\na\n```', tagged)).toBe('[code -: a/``` (3 lines)]');
    const stuck = {
      ...tagged,
      text: (lines: readonly string[], index: number) => ({ out: lines[index] ?? '', next: index }),
    };
    expect(renderMarkdownBlocks('a\nb', stuck)).toBe('a\nb');
  });
});
