// Markdown as Signal text with text styles (no network): markers stripped, each style's range in
// UTF-16 code units (emoji and CJK counted as Signal counts them), nesting, code spans keeping
// their markers, blocks; and sendText passing the styles to signal-cli's `textStyle`, sending
// plain text unstyled, and the text again without styles when the daemon refuses them.
import { type Logger, silentLogger } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { markdownToStyled } from '../format/markdown-to-styled.js';
import { textStyleParams } from '../format/styled-text.js';
import { RpcError } from '../rpc.js';
import { sendText } from '../send.js';

/** The text, and each range as `STYLE:the text it covers`. */
function shown(markdown: string): { text: string; runs: string[] } {
  const { text, styles } = markdownToStyled(markdown);
  return { text, runs: styles.map((s) => `${s.style}:${text.slice(s.start, s.start + s.length)}`) };
}

describe('markdownToStyled: inline styles', () => {
  it('each marker pair becomes its style, the markers gone', () => {
    const styled = markdownToStyled('**bold**, *italic*, __strong__, _em_, ~~gone~~, ||secret|| and `code`');
    expect(styled.text).toBe('bold, italic, strong, em, gone, secret and code');
    expect(textStyleParams(styled.styles)).toEqual([
      '0:4:BOLD',
      '6:6:ITALIC',
      '14:6:BOLD',
      '22:2:ITALIC',
      '26:4:STRIKETHROUGH',
      '32:6:SPOILER',
      '43:4:MONOSPACE',
    ]);
  });

  it('offsets count UTF-16 code units: an emoji is two, a ZWJ family eight', () => {
    const styled = markdownToStyled('👍 **ok** 👨‍👩‍👧 *yes*');
    expect(styled.text).toBe('👍 ok 👨‍👩‍👧 yes');
    // code points would put "ok" at 2 and "yes" at 11
    expect(styled.styles).toEqual([
      { start: 3, length: 2, style: 'BOLD' },
      { start: 15, length: 3, style: 'ITALIC' },
    ]);
    expect(shown('👍 **ok** 👨‍👩‍👧 *yes*').runs).toEqual(['BOLD:ok', 'ITALIC:yes']);
    expect(shown('**🎉 party 🎉**').runs).toEqual(['BOLD:🎉 party 🎉']);
    expect(markdownToStyled('**🎉 party 🎉**').styles).toEqual([{ start: 0, length: 11, style: 'BOLD' }]);
  });

  it('CJK: one unit a character (two outside the BMP), and stress inside a sentence without spaces', () => {
    expect(markdownToStyled('中文 **粗体** 和 `代码`')).toEqual({
      text: '中文 粗体 和 代码',
      styles: [
        { start: 3, length: 2, style: 'BOLD' },
        { start: 8, length: 2, style: 'MONOSPACE' },
      ],
    });
    expect(markdownToStyled('𠮷野家の**牛丼**です')).toEqual({
      text: '𠮷野家の牛丼です',
      styles: [{ start: 5, length: 2, style: 'BOLD' }],
    });
    expect(shown('这是*斜体*文字，那是~~删除~~。').runs).toEqual(['ITALIC:斜体', 'STRIKETHROUGH:删除']);
  });

  it('nested styles each get their range', () => {
    expect(shown('**bold *both* bold**')).toEqual({
      text: 'bold both bold',
      runs: ['BOLD:bold both bold', 'ITALIC:both'],
    });
    expect(shown('***all***')).toEqual({ text: 'all', runs: ['BOLD:all', 'ITALIC:all'] });
    expect(shown('*it **bold it** it*')).toEqual({
      text: 'it bold it it',
      runs: ['ITALIC:it bold it it', 'BOLD:bold it'],
    });
    expect(shown('~~**struck bold** and ||hidden `code`||~~')).toEqual({
      text: 'struck bold and hidden code',
      runs: ['STRIKETHROUGH:struck bold and hidden code', 'BOLD:struck bold', 'SPOILER:hidden code', 'MONOSPACE:code'],
    });
  });

  it('a code span keeps the markers inside it as text; markers around it style it', () => {
    expect(shown('run `**not bold**` and `a_b_c`, ``a ` tick``, ` spaced `')).toEqual({
      text: 'run **not bold** and a_b_c, a ` tick, spaced',
      runs: ['MONOSPACE:**not bold**', 'MONOSPACE:a_b_c', 'MONOSPACE:a ` tick', 'MONOSPACE:spaced'],
    });
    expect(shown('**`x` and y**').runs).toEqual(['BOLD:x and y', 'MONOSPACE:x']);
    // a closing marker inside a code span does not close: the span is skipped while looking
    expect(shown('*see `a*b` here*').runs).toEqual(['ITALIC:see a*b here', 'MONOSPACE:a*b']);
  });

  it('markers without a partner, inside words or numbers, or escaped stay as written', () => {
    for (const text of [
      '2*3*4 = 24',
      'snake_case_name and my_var_',
      'a ** b ** c',
      '**open without close',
      'x || y || z',
      'a||b||c',
      '`unclosed code',
      '* a bullet',
    ]) {
      expect(markdownToStyled(text), text).toEqual({ text, styles: [] });
    }
    expect(markdownToStyled('\\*not italic\\* and \\`tick\\`')).toEqual({
      text: '*not italic* and `tick`',
      styles: [],
    });
  });

  it('links are text (url), styled like their text; a bare URL once', () => {
    expect(
      shown('[docs](https://x.y/a_b) and **[bold](https://b.c)** and <https://a.b> and [https://u.v](https://u.v)'),
    ).toEqual({
      text: 'docs (https://x.y/a_b) and bold (https://b.c) and https://a.b and https://u.v',
      runs: ['BOLD:bold (https://b.c)'],
    });
    expect(shown('![a chart](https://x.y/c.png)').text).toBe('a chart (https://x.y/c.png)');
  });
});

describe('markdownToStyled: any input', () => {
  it('every range is non-empty, inside the text and never splits a surrogate pair (2,000 random lines)', () => {
    const pieces = [
      '*',
      '**',
      '_',
      '__',
      '~~',
      '||',
      '`',
      '``',
      '\\',
      '[',
      '](',
      ')',
      'https://x.y',
      ' ',
      'a',
      '中',
      '👍',
      '\n',
      '# ',
      '|',
      '---',
      '```',
    ];
    let seed = 42;
    const random = (n: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;
    for (let round = 0; round < 2_000; round += 1) {
      const markdown = Array.from({ length: 1 + random(24) }, () => pieces[random(pieces.length)]).join('');
      const { text, styles } = markdownToStyled(markdown);
      for (const { start, length } of styles) {
        const fits = length > 0 && start >= 0 && start + length <= text.length;
        const whole = !isLow(text.charCodeAt(start)) && !isLow(text.charCodeAt(start + length));
        expect(fits && whole, `${JSON.stringify(markdown)} -> ${start}:${length}`).toBe(true);
      }
    }
  });
});

describe('markdownToStyled: blocks', () => {
  it('headings bold, fenced code monospace with its markers as written, lists and quotes kept', () => {
    const md = '# The **plan**\n- step *one*\n> quoted\n```ts\nconst a = b ** 2; // **x**\n```\nafter';
    expect(shown(md)).toEqual({
      text: 'The plan\n- step one\n> quoted\nconst a = b ** 2; // **x**\nafter',
      runs: ['BOLD:The plan', 'BOLD:plan', 'ITALIC:one', 'MONOSPACE:const a = b ** 2; // **x**'],
    });
  });

  it('a table is aligned columns in one monospace block, its cells without markup', () => {
    expect(shown('Prices:\n| item | **cost** |\n|---|---:|\n| tea | `3` |\n| 咖啡 | 4 |\nend')).toEqual({
      text: 'Prices:\nitem | cost\n-----+-----\ntea  | 3\n咖啡   | 4\nend',
      runs: ['MONOSPACE:item | cost\n-----+-----\ntea  | 3\n咖啡   | 4'],
    });
  });

  it('what shows as nothing is empty; CRLF is a newline', () => {
    expect(markdownToStyled('```\n```').text).toBe('');
    expect(markdownToStyled('**a**\r\n*b*')).toEqual({
      text: 'a\nb',
      styles: [
        { start: 0, length: 1, style: 'BOLD' },
        { start: 2, length: 1, style: 'ITALIC' },
      ],
    });
  });
});

describe('sendText', () => {
  type Call = { method: string; params: Record<string, unknown> };
  const sender = (refuseStyles: boolean) => {
    const calls: Call[] = [];
    const warnings: string[] = [];
    const logger: Logger = {
      ...silentLogger,
      warn: (_: unknown, message?: string) => void warnings.push(message ?? ''),
      child: () => logger,
    };
    const rpc = {
      async call(method: string, params: Record<string, unknown> = {}) {
        calls.push({ method, params });
        if (refuseStyles && params.textStyle !== undefined) {
          throw new RpcError(
            "send failed (code -1): Invalid textStyle syntax (x) expected 'start:length:STYLE'",
            -1,
            200,
          );
        }
        return { timestamp: 1_700_000_000_001 + calls.length, results: [{ type: 'SUCCESS' }] };
      },
    };
    return { calls, warnings, sender: { rpc, account: '+15550009999', logger } };
  };

  it('formatted Markdown goes as its text with textStyle; plain text goes as written', async () => {
    const s = sender(false);
    expect(
      await sendText(s.sender, { chatId: '+15551230001', text: 'Hi **you** 👋 `x`', formatted: true }),
    ).toMatchObject({
      ok: true,
    });
    expect(
      await sendText(s.sender, { chatId: '+15551230001', text: 'pairing **code**', formatted: false }),
    ).toMatchObject({
      ok: true,
    });
    expect(s.calls.map((c) => [c.params.message, c.params.textStyle])).toEqual([
      ['Hi you 👋 x', ['3:3:BOLD', '10:1:MONOSPACE']],
      ['pairing **code**', undefined],
    ]);
  });

  it('styles the daemon refuses: the same text once more without them, and a warning', async () => {
    const s = sender(true);
    const result = await sendText(s.sender, { chatId: 'group:abc', text: '**hello**', formatted: true });
    expect(result).toEqual({ ok: true, messageIds: ['1700000000003:+15550009999'] });
    expect(s.calls.map((c) => [c.params.message, c.params.textStyle])).toEqual([
      ['hello', ['0:5:BOLD']],
      ['hello', undefined],
    ]);
    expect(s.warnings).toEqual(['signal: the text styles were refused; sent without them']);
  });
});
