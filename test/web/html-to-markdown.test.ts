// The key-free provider's converter: parse (forgiving), prune the page furniture, render Markdown or text.
import { describe, expect, it } from 'vitest';
import { decodeEntities } from '../../plugins/web/fetch/html/entities.js';
import { pageLinks } from '../../plugins/web/fetch/html/links.js';
import { contentRoot, pageInfo, prune } from '../../plugins/web/fetch/html/page-content.js';
import { MAX_DEPTH, parseHtml, textContent } from '../../plugins/web/fetch/html/parse-html.js';
import { renderHtml } from '../../plugins/web/fetch/html/to-markdown.js';

const BASE = 'https://example.com/blog/post';

function md(html: string, format: 'markdown' | 'text' = 'markdown'): string {
  const root = parseHtml(html);
  prune(root);
  return renderHtml(contentRoot(root), format, BASE);
}

describe('entities', () => {
  it('decodes named, numeric and legacy references; leaves unknown ones and query strings alone', () => {
    expect(decodeEntities('a &amp; b &lt;c&gt; &quot;d&quot; &#39;e&#x27; &eacute;&hellip; &#128512; &#150;')).toBe(
      'a & b <c> "d" \'e\' é… 😀 –',
    );
    expect(decodeEntities('&unknown; &amp &copy 2025 &#0;')).toBe('&unknown; & © 2025 \ufffd');
    expect(decodeEntities('?a=1&copy=2&lang=en', true)).toBe('?a=1&copy=2&lang=en');
    expect(decodeEntities('?a=1&amp;b=2', true)).toBe('?a=1&b=2');
  });
});

describe('parseHtml', () => {
  it('closes what HTML lets authors leave open and ignores stray end tags', () => {
    const root = parseHtml('<ul><li>one<li>two</ul><p>a<p>b</span></p><table><tr><td>1<td>2<tr><td>3</table>');
    const [ul, p1, p2, table] = root.children.filter((c) => c.type === 'element');
    expect(ul && textContent(ul)).toBe('onetwo');
    expect(ul?.type === 'element' && ul.children.length).toBe(2);
    expect([p1, p2].map((p) => p && textContent(p))).toEqual(['a', 'b']);
    expect(table?.type === 'element' && table.children.length).toBe(2);
  });

  it('keeps script and style as raw text, skips comments, decodes attributes, survives junk', () => {
    const root = parseHtml(
      '<!-- x --><script>if (a < b) { "</p>" }</script><a href="/q?x=1&amp;y=2" title=bare>t</a><b<>',
    );
    const script = root.children[0];
    expect(script?.type === 'element' && textContent(script)).toBe('if (a < b) { "</p>" }');
    const a = root.children[1];
    expect(a?.type === 'element' && a.attrs).toEqual({ href: '/q?x=1&y=2', title: 'bare' });
    expect(() => parseHtml('<<<>>> </ > <div <p "x')).not.toThrow();
  });

  it('flattens nesting deeper than MAX_DEPTH instead of overflowing', () => {
    const deep = `${'<div>'.repeat(MAX_DEPTH * 4)}deep text${'</div>'.repeat(MAX_DEPTH * 4)}`;
    expect(md(deep)).toBe('deep text');
  });
});

describe('page metadata and content', () => {
  const page = `<!doctype html><html lang="fr"><head><title> Le  titre </title>
<meta name="description" content="Une page"><meta property="og:site_name" content="Exemple">
<link rel="canonical" href="/canon"><base href="https://cdn.example.com/assets/"></head>
<body><header><a href="/">Logo</a><nav><a href="/a">A</a></nav></header>
<div class="cookie-banner">We use cookies</div>
<main><h1>Bonjour</h1><p>Texte <a href="x.html">lien</a>.</p><p hidden>caché</p><div style="display: none">invisible</div>
<aside>sidebar</aside><form><label>Name</label><input name="n"><button>Go</button></form></main>
<footer>© footer</footer><script>track()</script></body></html>`;

  it('reads title, description, language, canonical URL, site name and <base>', () => {
    expect(pageInfo(parseHtml(page), BASE)).toEqual({
      title: 'Le titre',
      description: 'Une page',
      lang: 'fr',
      canonical: 'https://cdn.example.com/canon',
      siteName: 'Exemple',
      base: 'https://cdn.example.com/assets/',
    });
  });

  it('keeps the main content and drops navigation, banners, hidden parts, controls, header and footer', () => {
    const root = parseHtml(page);
    prune(root);
    const text = renderHtml(contentRoot(root), 'markdown', 'https://cdn.example.com/assets/');
    expect(text).toBe('# Bonjour\n\nTexte [lien](https://cdn.example.com/assets/x.html).\n\nName');
  });

  it('never prunes the article with a wrapper whose class merely mentions a sidebar', () => {
    const html = `<body><div class="layout-with-sidebar"><article><h1>Kept</h1><p>${'word '.repeat(60)}</p></article>
<div class="sidebar">side</div></div></body>`;
    const out = md(html);
    expect(out.startsWith('# Kept')).toBe(true);
    expect(out).not.toContain('side');
  });

  it('falls back to the body when there is no main or article, and to the biggest of several articles', () => {
    expect(md('<body><h2>Title</h2><p>Body text</p></body>')).toBe('## Title\n\nBody text');
    const post = `<body><article><h1>Post</h1><p>${'long '.repeat(100)}</p><article><p>a comment</p></article></article></body>`;
    expect(md(post).startsWith('# Post')).toBe(true);
  });
});

describe('renderHtml', () => {
  it('renders the common blocks as Markdown', () => {
    const html = `<main><h2>Sub <em>title</em></h2>
<p>Text with <strong>bold</strong>, <i>italic</i>, <del>gone</del>, <code>a\`b</code> and a line<br>break.</p>
<ol start="3"><li>three<li>four<ul><li>nested</ul></ol>
<pre class="language-python"><code>def f():
    return "\`\`\`"</code></pre>
<blockquote><p>quote one</p><p>quote two</p></blockquote>
<table><thead><tr><th>k<th>v</thead><tbody><tr><td>a | b<td>1</tbody></table>
<dl><dt>Term</dt><dd>Definition</dd></dl>
<p><img src="/i.png" alt="An image"> <img src="/decor.png"> <a href="javascript:void(0)">js</a> <a href="#top">top</a></p>
<hr><p>1. not a list, # not a heading, snake_case, 2*3</p></main>`;
    expect(md(html)).toBe(
      [
        '## Sub *title*',
        // turndown: a <br> is a hard break (two spaces), a fence only needs to outlast fences at a line start,
        // and `_` and `*` are escaped even inside words (all equally correct CommonMark)
        'Text with **bold**, *italic*, ~~gone~~, ``a`b`` and a line  \nbreak.',
        '3. three\n4. four\n   - nested',
        '```python\ndef f():\n    return "```"\n```',
        '> quote one\n> \n> quote two',
        '| k | v |\n| --- | --- |\n| a \\| b | 1 |',
        '**Term**\n\nDefinition',
        '![An image](https://example.com/i.png) js top',
        '---',
        '1\\. not a list, # not a heading, snake\\_case, 2\\*3',
      ].join('\n\n'),
    );
  });

  it('renders plain text without markup, links or images', () => {
    const html =
      '<main><h1>Head</h1><p>See <a href="/x">this <b>link</b></a> &amp; <img src="a.png" alt="pic">.</p><ul><li>a<li>b</ul></main>';
    expect(md(html, 'text')).toBe('Head\n\nSee this link & pic.\n\n- a\n- b');
  });

  it('collapses whitespace like a browser except in <pre>', () => {
    expect(md('<p>  a \n\n  b\t c  </p><pre>  x\n    y</pre>', 'text')).toBe('a b c\n\n  x\n    y');
  });
});

describe("renderHtml with turndown: the provider's own rules", () => {
  it('renders a layout table (a table in a table) one line per row, without escaping its pipes', () => {
    const html =
      '<table><tr><td><table><tr><td>inner a</td><td>inner b</td></tr></table></td><td>side</td></tr><tr><td>row two</td></tr></table>';
    expect(md(html)).toBe('inner a | inner b | side\n\nrow two');
    expect(md(html, 'text')).toBe('inner a | inner b | side\nrow two');
  });

  it('pads a GitHub table for colspan and puts its caption above', () => {
    const html =
      '<table><caption>Prices</caption><tr><th colspan="2">wide</th><th>c</th></tr><tr><td>1<td>2<td>3</table>';
    expect(md(html)).toBe('Prices\n\n| wide |  | c |\n| --- | --- | --- |\n| 1 | 2 | 3 |');
  });

  it('fences a <pre> without <code> and keeps its indentation and markup characters', () => {
    expect(md('<p>x</p><pre>  indented\n    code &lt;b&gt; *not em*</pre>')).toBe(
      'x\n\n```\n  indented\n    code <b> *not em*\n```',
    );
  });

  it('drops a link with neither text nor image, keeps a linked image, survives tag names the DOM refuses', () => {
    expect(md('<p>icon <a href="/x"></a> and <a href="/y"><img src="/y.png" alt="pic"></a></p>')).toBe(
      'icon and [![pic](https://example.com/y.png)](https://example.com/y)',
    );
    expect(md('<b<>x</b<> <p>after</p>')).toBe('x\n\nafter');
  });

  it("keeps a list item's paragraphs under its marker", () => {
    expect(md('<ul><li><p>para one</p><p>para two</p></li><li>second</li></ul>')).toBe(
      '- para one\n\n  para two\n- second',
    );
  });
});

describe('pageLinks', () => {
  it('lists absolute http(s) links once, without fragments, nofollow or downloads', () => {
    const root = parseHtml(
      '<a href="/a#x">A</a><a href="/a">again</a><a href="mailto:x@y">m</a><a href="/f.pdf">pdf</a><a rel="nofollow" href="/n">n</a><a href="https://other.example/">o</a>',
    );
    expect(pageLinks(root, BASE)).toEqual([
      { url: 'https://example.com/a', text: 'A' },
      { url: 'https://other.example/', text: 'o' },
    ]);
  });
});
