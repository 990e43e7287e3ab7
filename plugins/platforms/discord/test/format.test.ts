// Model Markdown → Discord markdown: kept where Discord renders it, adapted where it does not.
import { describe, expect, it } from 'vitest';
import { markdownToDiscord } from '../format/markdown-to-discord.js';

describe('markdownToDiscord', () => {
  it('keeps what Discord renders: emphasis, links, lists, quotes, code, headings up to ###', () => {
    const text = [
      '# Title',
      '## Part',
      '### Step',
      '**bold** *italic* ***both*** ~~gone~~ `code`',
      '[docs](https://example.org) and <https://example.org>',
      '- one',
      '  - nested',
      '1. first',
      '> quoted',
    ].join('\n');
    expect(markdownToDiscord(text)).toBe(text);
  });

  it('makes headings deeper than ### bold lines', () => {
    expect(markdownToDiscord('#### Details ####\n###### tiny')).toBe('**Details**\n**tiny**');
  });

  it('turns __bold__ (underline on Discord) into **bold**, but not inside words or code', () => {
    expect(markdownToDiscord('__strong__ and snake__case__name and `__init__`')).toBe(
      '**strong** and snake__case__name and `__init__`',
    );
  });

  it('passes fenced code through untouched, including what would otherwise be rewritten', () => {
    const code = [
      '```python',
      'def __init__(self):',
      '    pass',
      '#### not a heading',
      '| a | b |',
      '|---|---|',
      '```',
    ];
    expect(markdownToDiscord(code.join('\n'))).toBe(code.join('\n'));
  });

  it('renders a table as an aligned code block', () => {
    const table = ['| Name | Score |', '|:-----|------:|', '| **Ada** | 10 |', '| `Grace` | 9 |'].join('\n');
    expect(markdownToDiscord(`Results:\n${table}\nDone.`)).toBe(
      ['Results:', '```', 'Name  | Score', '------+------', 'Ada   | 10', 'Grace | 9', '```', 'Done.'].join('\n'),
    );
  });

  it('replaces rules, task boxes, images, <br> and quotes without a space', () => {
    expect(markdownToDiscord('---\n- [ ] todo\n- [x] done\n![a cat](https://x.org/c.png)\nline<br>break\n>note')).toBe(
      '──────────\n- ☐ todo\n- ☑ done\n[a cat](https://x.org/c.png)\nline\nbreak\n> note',
    );
  });
});
