// Markdown → Telegram HTML: exact conversions, and a fuzz check that the output always parses on Telegram.
import { describe, expect, it } from 'vitest';
import { parseTelegramHtml } from '../../../../test/fakes/telegram-server.js';
import { markdownToTelegramHtml as format } from '../format/markdown-to-html.js';
import { htmlToPlain } from '../html-to-plain.js';

describe('format: inline', () => {
  it.each([
    ['plain text', 'plain text'],
    ['a < b && c > d', 'a &lt; b &amp;&amp; c &gt; d'],
    ['**bold** and __bold__', '<b>bold</b> and <b>bold</b>'],
    ['*italic* and _italic_', '<i>italic</i> and <i>italic</i>'],
    ['~~gone~~', '<s>gone</s>'],
    ['***both***', '<b><i>both</i></b>'],
    ['**bold with *italic* inside**', '<b>bold with <i>italic</i> inside</b>'],
    ['`a <b> & c`', '<code>a &lt;b&gt; &amp; c</code>'],
    ['``code with ` tick``', '<code>code with ` tick</code>'],
    ['`**not bold**`', '<code>**not bold**</code>'],
    ['**`code` in bold**', '<b><code>code</code> in bold</b>'],
    ['snake_case_name and file_name.py', 'snake_case_name and file_name.py'],
    ['2 * 3 * 4 = 24', '2 * 3 * 4 = 24'],
    ['**unclosed bold', '**unclosed bold'],
    ['an * alone and a _ too', 'an * alone and a _ too'],
    ['\\*not italic\\*', '*not italic*'],
    ['**a *b** c*', '<b>a *b</b> c*'],
  ])('%s', (markdown, html) => {
    expect(format(markdown)).toBe(html);
  });

  it('renders links with escaped URLs and formatted labels', () => {
    expect(format('[the **docs**](https://x.test/a?b=1&c="2")')).toBe(
      '<a href="https://x.test/a?b=1&amp;c=&quot;2&quot;">the <b>docs</b></a>',
    );
    expect(format('[wiki](https://en.wikipedia.org/wiki/Foo_(bar))')).toBe(
      '<a href="https://en.wikipedia.org/wiki/Foo_(bar)">wiki</a>',
    );
    expect(format('<https://x.test/p>')).toBe('<a href="https://x.test/p">https://x.test/p</a>');
    expect(format('![a cat](https://x.test/cat.png)')).toBe('<a href="https://x.test/cat.png">a cat</a>');
  });

  it('drops links with unsafe or relative URLs, keeping their text', () => {
    expect(format('[click](javascript:alert(1))')).toBe('click');
    expect(format('[rel](/relative/path)')).toBe('rel');
  });
});

describe('format: blocks', () => {
  it('turns fenced code into pre/code with the language, escaped and untouched by inline rules', () => {
    const markdown = ['```python', 'if a < b and **kw:', '    print("x & y")', '```'].join('\n');
    expect(format(markdown)).toBe(
      '<pre><code class="language-python">if a &lt; b and **kw:\n    print("x &amp; y")</code></pre>',
    );
  });

  it('uses a bare pre without a language, and closes an unclosed fence at the end', () => {
    expect(format('```\nx\n```')).toBe('<pre>x</pre>');
    expect(format('text\n```js\nlet a = 1;')).toBe('text\n<pre><code class="language-js">let a = 1;</code></pre>');
  });

  it('sanitizes the language into the class attribute', () => {
    expect(format('```c++"onload=x\nint a;\n```')).toBe('<pre><code class="language-c++onloadx">int a;</code></pre>');
  });

  it('turns headings into bold lines', () => {
    expect(format('# Title\n## Sub *title* ##\ntext')).toBe('<b>Title</b>\n<b>Sub <i>title</i></b>\ntext');
  });

  it('turns bullets into "• " keeping indentation and numbered lists as they are', () => {
    expect(format('- one\n* two\n  + nested **b**\n1. first\n- [ ] todo\n- [x] done')).toBe(
      '• one\n• two\n  • nested <b>b</b>\n1. first\n• ☐ todo\n• ☑ done',
    );
  });

  it('turns quotes into a blockquote and rules into a line', () => {
    expect(format('> quoted **b**\n> more\n\n---\nafter')).toBe(
      '<blockquote>quoted <b>b</b>\nmore</blockquote>\n\n──────────\nafter',
    );
  });

  it('renders a table as an aligned monospace block', () => {
    const table = ['| Name | Qty |', '|:-----|----:|', '| **apple** | 3 |', '| kiwi & <co> | 12 |'].join('\n');
    expect(format(`Stock:\n${table}\nend`)).toBe(
      [
        'Stock:',
        '<pre>Name        | Qty',
        '------------+----',
        'apple       | 3',
        'kiwi &amp; &lt;co&gt; | 12</pre>',
        'end',
      ].join('\n'),
    );
  });

  it('keeps blank lines and a lone pipe that is not a table', () => {
    expect(format('a | b\n\nc')).toBe('a | b\n\nc');
  });
});

/** A small deterministic PRNG (mulberry32). */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = [
  '**',
  '*',
  '__',
  '_',
  '~~',
  '`',
  '```',
  '```py\n',
  '\n',
  '\n\n',
  '# ',
  '- ',
  '> ',
  '| a | b |\n|---|---|\n| 1 | 2 |\n',
  '[',
  '](',
  ')',
  'https://x.test/?a=1&b=2',
  '<',
  '>',
  '&',
  '&amp;',
  '"',
  '\\',
  ' ',
  'word',
  'snake_case',
  '😀',
  '<b>',
  '</i>',
  '\uE000',
];

describe('format: fuzz', () => {
  it('always produces HTML that Telegram parses, for 3,000 random inputs', () => {
    const random = rng(2024);
    for (let n = 0; n < 3000; n += 1) {
      const parts: string[] = [];
      const count = 1 + Math.floor(random() * 30);
      for (let i = 0; i < count; i += 1) parts.push(PIECES[Math.floor(random() * PIECES.length)] ?? '');
      const markdown = parts.join('');
      const html = format(markdown);
      const parsed = parseTelegramHtml(html);
      expect(parsed, `input ${JSON.stringify(markdown)} gave ${JSON.stringify(html)}`).toMatchObject({ ok: true });
    }
  });
});

describe('htmlToPlain', () => {
  it('drops tags and decodes entities once', () => {
    expect(htmlToPlain('<b>a</b> &lt;b&gt; &amp;lt; &#65;&#x1F600; <a href="x">l</a>')).toBe('a <b> &lt; A😀 l');
  });
});
