// Markdown from the model as Matrix HTML (formatted_body) and the plain body derived from it; the
// send errors the gateway's delivery acts on.
import { describe, expect, it } from 'vitest';
import { MatrixApiError } from '../client.js';
import { htmlToPlain } from '../format/html-to-plain.js';
import { markdownToMatrixHtml } from '../format/markdown-to-html.js';
import { textContent, txnIdOf } from '../send.js';
import { toSendFailure } from '../send-errors.js';

describe('markdownToMatrixHtml', () => {
  it('inline markup, lines joined with <br>, code blocks kept whole', () => {
    expect(markdownToMatrixHtml('Hello **bold** and _it_ and `x<y`\nnext line')).toBe(
      'Hello <strong>bold</strong> and <em>it</em> and <code>x&lt;y</code><br>next line',
    );
    expect(markdownToMatrixHtml('```ts\nconst a = 1;\nconst b = 2;\n```')).toBe(
      '<pre><code class="language-ts">const a = 1;\nconst b = 2;</code></pre>',
    );
  });

  it('headings, bullets, quotes and tables; unsafe links stay text', () => {
    const html = markdownToMatrixHtml('# Title\n- one\n- two\n> quoted\n\n| a | b |\n|---|---|\n| 1 | 2 |');
    expect(html).toContain('<h3>Title</h3>');
    expect(html).toContain('• one<br>• two');
    expect(html).toContain('<blockquote>quoted</blockquote>');
    expect(html).toMatch(/<pre><code>a +\| b/);
    expect(markdownToMatrixHtml('[x](javascript:alert(1)) [y](https://e.org/?a=1&b=2)')).toBe(
      'x <a href="https://e.org/?a=1&amp;b=2">y</a>',
    );
    expect(markdownToMatrixHtml('<script>alert(1)</script>')).toBe('&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});

describe('htmlToPlain', () => {
  it('the body of a formatted message: no tags, entities decoded, links with their URL', () => {
    const html = markdownToMatrixHtml('**Hi** & [docs](https://e.org/d)\n- a\n```\nx < y\n```');
    expect(htmlToPlain(html)).toBe('Hi & docs (https://e.org/d)\n• a\nx < y');
    expect(textContent(html, true)).toMatchObject({
      msgtype: 'm.text',
      format: 'org.matrix.custom.html',
      formatted_body: html,
    });
    expect(textContent('plain **x**', false)).toEqual({ msgtype: 'm.text', body: 'plain **x**' });
  });
});

describe('transaction ids and send errors', () => {
  it('the same outbox key gives the same transaction id; no key gives a fresh one', () => {
    expect(txnIdOf('1a.lx2')).toBe('hermes.1a.lx2');
    expect(txnIdOf(undefined)).not.toBe(txnIdOf(undefined));
  });

  it('maps the server errors to what delivery does with them', () => {
    const err = (status: number | null, errcode: string | null, retry?: number) =>
      toSendFailure(new MatrixApiError('refused', errcode, status, retry));
    expect(err(429, 'M_LIMIT_EXCEEDED', 1234)).toMatchObject({ error: 'rate_limited', retryAfterMs: 1234 });
    expect(err(429, 'M_LIMIT_EXCEEDED')).toMatchObject({ error: 'rate_limited', retryAfterMs: 5000 });
    expect(err(413, 'M_TOO_LARGE')).toMatchObject({ error: 'too_long' });
    expect(err(403, 'M_FORBIDDEN')).toMatchObject({ error: 'forbidden' });
    expect(err(401, 'M_UNKNOWN_TOKEN')).toMatchObject({ error: 'forbidden' });
    expect(err(404, 'M_NOT_FOUND')).toMatchObject({ error: 'not_found' });
    expect(err(502, null)).toEqual({ ok: false, error: 'transient', message: 'refused', status: 502 });
    expect(err(null, null)).toEqual({ ok: false, error: 'transient', message: 'refused' });
    expect(err(400, 'M_BAD_JSON')).toMatchObject({ error: 'bad_format' });
    expect(toSendFailure(new Error('boom'))).toMatchObject({ error: 'transient', message: 'boom' });
  });
});
