// Markdown → Slack mrkdwn: inline styles, links, code, blocks, tables, and escaping of & < >.
import { describe, expect, it } from 'vitest';
import { escapeMrkdwn } from '../format/escape-mrkdwn.js';
import { markdownToMrkdwn } from '../format/markdown-to-mrkdwn.js';

describe('markdownToMrkdwn: inline', () => {
  it.each([
    ['**bold**', '*bold*'],
    ['__bold__', '*bold*'],
    ['*italic*', '_italic_'],
    ['_italic_', '_italic_'],
    ['***both***', '*_both_*'],
    ['~~gone~~', '~gone~'],
    ['**bold** then *italic* then ~~strike~~', '*bold* then _italic_ then ~strike~'],
  ])('%j → %j', (markdown, mrkdwn) => {
    expect(markdownToMrkdwn(markdown)).toBe(mrkdwn);
  });

  it('leaves lone asterisks and underscores inside words alone', () => {
    expect(markdownToMrkdwn('2 * 3 * 4 = 24, snake_case_name, a*b*c')).toBe('2 * 3 * 4 = 24, snake_case_name, a*b*c');
  });

  it('turns links, images and autolinks into <url|text>, escaping & in the URL', () => {
    expect(markdownToMrkdwn('see [the docs](https://example.com/a?b=1&c=2) or <https://x.y/z>')).toBe(
      'see <https://example.com/a?b=1&amp;c=2|the docs> or <https://x.y/z>',
    );
    expect(markdownToMrkdwn('![a chart](https://i.example/p.png)')).toBe('<https://i.example/p.png|a chart>');
    expect(markdownToMrkdwn('[https://e.com](https://e.com)')).toBe('<https://e.com>');
  });

  it('keeps code spans verbatim (no styling inside) but escaped', () => {
    expect(markdownToMrkdwn('run `a < b && **c**` now')).toBe('run `a &lt; b &amp;&amp; **c**` now');
  });

  it('resolves backslash escapes to the literal character', () => {
    expect(markdownToMrkdwn('1\\. not a list, \\[not a link\\](x)')).toBe('1. not a list, [not a link](x)');
  });

  it('escapes &, < and > so no text becomes a mention, @channel or a link', () => {
    expect(markdownToMrkdwn('<!channel> ping <@U123> & <script>')).toBe(
      '&lt;!channel&gt; ping &lt;@U123&gt; &amp; &lt;script&gt;',
    );
  });
});

describe('markdownToMrkdwn: blocks', () => {
  it('keeps fenced code (dropping the language tag Slack would show as text), escaped, unstyled', () => {
    expect(markdownToMrkdwn('before\n```python\nif a < b and **c**:\n    print("&")\n```\nafter *x*')).toBe(
      'before\n```\nif a &lt; b and **c**:\n    print("&amp;")\n```\nafter _x_',
    );
    expect(markdownToMrkdwn('~~~\ntilde\n~~~')).toBe('```\ntilde\n```');
  });

  it('closes a fence the text never closed', () => {
    expect(markdownToMrkdwn('```js\nconst x = 1;')).toBe('```\nconst x = 1;\n```');
  });

  it('turns headings into bold lines', () => {
    expect(markdownToMrkdwn('# Title\n## Sub **x** ##\ntext')).toBe('*Title*\n*Sub x*\ntext');
  });

  it('turns bullets into •, keeps nesting, numbers and task boxes', () => {
    expect(markdownToMrkdwn('- one\n  - nested *x*\n* two\n+ three\n1. first\n2) second\n- [ ] todo\n- [x] done')).toBe(
      '• one\n  • nested _x_\n• two\n• three\n1. first\n2. second\n☐ todo\n☑ done',
    );
  });

  it('keeps quotes as Slack quotes (the > itself unescaped)', () => {
    expect(markdownToMrkdwn('> quoted <b> & **bold**\n>\n> more')).toBe('> quoted &lt;b&gt; &amp; *bold*\n>\n> more');
  });

  it('turns rules into a line', () => {
    expect(markdownToMrkdwn('a\n---\nb\n***')).toBe('a\n──────────\nb\n──────────');
  });

  it('renders a pipe table as an aligned monospace block', () => {
    expect(markdownToMrkdwn('| Name | Qty |\n|------|----:|\n| apple | 3 |\n| **kiwi** | 12 |\nafter')).toBe(
      '```\nName  | Qty\n------+----\napple | 3\nkiwi  | 12\n```\nafter',
    );
  });

  it('keeps blank lines and plain paragraphs', () => {
    expect(markdownToMrkdwn('one\n\ntwo\r\nthree')).toBe('one\n\ntwo\nthree');
  });
});

describe('escapeMrkdwn', () => {
  it('escapes exactly &, < and >', () => {
    expect(escapeMrkdwn('a & b < c > d *e* _f_')).toBe('a &amp; b &lt; c &gt; d *e* _f_');
  });
});
