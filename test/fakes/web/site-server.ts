// A small website on 127.0.0.1 for the key-free fetch provider and the SSRF tests: articles with links,
// redirects, a slow page, a big page, gzip, legacy charsets, plain text, a PDF, a 404 and an "internal" secret.
import type { ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { type HttpFake, sendText, startHttpFake } from './http-fake.js';

const page = (title: string, body: string, head = '') =>
  `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`;

const NAV =
  '<header class="site-header"><a href="/">Fake Site</a><nav><a href="/docs/a">Docs</a> <a href="/about">About</a></nav></header>';
const FOOTER = '<footer><p>© 2025 Fake Site · <a href="/privacy">Privacy</a></p></footer>';

export const SITE_PAGES: Record<string, string> = {
  '/article': page(
    'Solar power in 2025 | Fake Site',
    `${NAV}<main><article><h1>Solar power in 2025</h1>
<p class="byline">By <a href="/authors/ann">Ann</a></p>
<p>Solar panels produced <strong>more power</strong> than coal for the first time.</p>
<h2>Why it matters</h2><ul><li>Cheaper energy</li><li>Cleaner air</li></ul>
<p>Read the <a href="/docs/a">technical notes</a> or the <a href="https://other.example/elsewhere">press release</a>.</p>
<div class="share-bar">Share on social media</div>
<p><a href="/files/report.pdf">Full report (PDF)</a></p>
</article></main>${FOOTER}`,
    '<meta name="description" content="How solar overtook coal."><link rel="canonical" href="/article">',
  ),
  '/docs/a': page('Docs A', `${NAV}<main><h1>Docs A</h1><p>Alpha notes. See <a href="/docs/b">Docs B</a>.</p></main>`),
  '/docs/b': page(
    'Docs B',
    `${NAV}<main><h1>Docs B</h1><p>Beta notes. See <a href="/docs/c">Docs C</a> and <a href="/docs/a#top">A</a>.</p></main>`,
  ),
  '/docs/c': page('Docs C', '<main><h1>Docs C</h1><p>Gamma notes, two hops from A.</p></main>'),
  '/about': page('About', '<main><h1>About</h1><p>A fake site for tests.</p></main>'),
  '/secret': page('Internal', '<main><h1>Internal admin</h1><p>top secret internal data</p></main>'),
};

export interface FakeSite extends HttpFake {
  /** paths requested, in order */
  readonly hits: string[];
}

function html(res: ServerResponse, text: string, status = 200): void {
  sendText(res, status, 'text/html; charset=utf-8', text);
}

/** Starts the site. `/redirect?to=URL` answers 302 to URL; `/slow?ms=N` waits N ms first. */
export async function startFakeSite(): Promise<FakeSite> {
  const hits: string[] = [];
  const fake = await startHttpFake(async (req, res) => {
    hits.push(req.path);
    const known = SITE_PAGES[req.path];
    if (known) return html(res, known);
    switch (req.path) {
      case '/redirect': {
        res.writeHead(Number(req.query.get('status') ?? 302), { location: req.query.get('to') ?? '/article' });
        return res.end();
      }
      case '/loop':
        res.writeHead(302, { location: '/loop' });
        return res.end();
      case '/slow': {
        await new Promise((r) => setTimeout(r, Number(req.query.get('ms') ?? 2000)));
        return html(res, page('Slow', '<p>finally</p>'));
      }
      case '/big':
        return html(res, page('Big', `<p>${'lorem ipsum '.repeat(50_000)}</p>`));
      case '/gzip': {
        const body = gzipSync(Buffer.from(page('Zipped', '<main><h1>Zipped page</h1><p>compressed body</p></main>')));
        res.writeHead(200, {
          'content-type': 'text/html; charset=utf-8',
          'content-encoding': 'gzip',
          'content-length': body.length,
        });
        return res.end(body);
      }
      case '/latin1':
        return sendText(
          res,
          200,
          'text/html; charset=ISO-8859-1',
          Buffer.from(page('Caf\u00e9', '<p>Cr\u00e8me br\u00fbl\u00e9e</p>'), 'latin1'),
        );
      case '/meta-charset':
        return sendText(
          res,
          200,
          'text/html',
          Buffer.from(
            '<html><head><meta charset="windows-1252"><title>Euro</title></head><body><p>Price: \u00a3 5</p></body></html>',
            'latin1',
          ),
        );
      case '/text':
        return sendText(res, 200, 'text/plain; charset=utf-8', 'Just plain text.\nSecond line.\n');
      case '/files/report.pdf':
        return sendText(res, 200, 'application/pdf', Buffer.from('%PDF-1.4 fake'));
      default:
        return html(res, page('Not found', '<h1>404</h1>'), 404);
    }
  });
  return Object.assign(fake, { hits });
}
