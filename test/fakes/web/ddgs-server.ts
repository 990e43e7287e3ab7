// A fake of DuckDuckGo's HTML endpoint: POST /html/ with a form body (q, b, l), answered with a results page
// marked up as html.duckduckgo.com marks it up (an ad first, DuckDuckGo's redirect links on some results,
// <b> marks and character references), its "No results." page, or its bot-check page when told to limit.
import { CORPUS, type CorpusDoc, searchCorpus } from './corpus.js';
import { type HttpFake, sendText, startHttpFake } from './http-fake.js';

export interface FakeDdgsOptions {
  docs?: readonly CorpusDoc[];
}

export type FakeDdgsMode = 'results' | 'limited-202' | 'limited-403' | 'limited-200' | 'other-layout';

export interface FakeDdgs extends HttpFake {
  /** how the next searches are answered: results (the default), DuckDuckGo's bot check with this status, or a page of another layout */
  setMode(mode: FakeDdgsMode): void;
  /** the form fields of each search, in order */
  forms(): URLSearchParams[];
}

const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The page's markup of one result; every other result links through DuckDuckGo's redirect. */
function result(doc: CorpusDoc, index: number, query: string): string {
  const href =
    index % 2 === 1 ? `//duckduckgo.com/l/?uddg=${encodeURIComponent(doc.url)}&amp;rut=fake${index}` : doc.url;
  const word = query.split(/\s+/).find((w) => w.length > 2) ?? '';
  const mark = (text: string) => (word ? esc(text).replace(new RegExp(`(${word})`, 'i'), '<b>$1</b>') : esc(text));
  return `<div class="result results_links results_links_deep web-result ">
  <div class="links_main links_deep result__body"> <!-- This is the visible part -->
    <h2 class="result__title">
      <a rel="nofollow" class="result__a" href="${href}">${mark(doc.title)}</a>
    </h2>
    <div class="result__extras"><div class="result__extras__url">
      <a class="result__url" href="${href}">${esc(new URL(doc.url).hostname)}</a>
    </div></div>
    <a class="result__snippet" href="${href}">${mark(doc.snippet)}</a>
    <div class="clear"></div>
  </div>
</div>`;
}

const AD = `<div class="result results_links results_links_deep result--ad ">
  <div class="links_main links_deep result__body">
    <h2 class="result__title"><a rel="nofollow" class="result__a" href="https://duckduckgo.com/y.js?ad_domain=ads.example&amp;u3=x">Buy things &amp; more</a></h2>
    <a class="result__snippet" href="https://duckduckgo.com/y.js?ad_domain=ads.example">An ad.</a>
  </div>
</div>`;

const page = (body: string) =>
  `<!DOCTYPE html><html lang="en-US"><head><meta charset="UTF-8"><title>results at DuckDuckGo</title></head><body><div id="links" class="results">${body}</div></body></html>`;

const BOT_CHECK = `<!DOCTYPE html><html><body><div class="anomaly-modal__title">Unfortunately, bots use DuckDuckGo too.</div>
<form id="challenge-form" action="//duckduckgo.com/anomaly.js?sv=html&amp;cc=botnet" method="POST"></form></body></html>`;

export async function startFakeDdgs(options: FakeDdgsOptions = {}): Promise<FakeDdgs> {
  const docs = options.docs ?? CORPUS;
  let mode: FakeDdgsMode = 'results';
  const fake = await startHttpFake((req, res) => {
    if (req.method !== 'POST' || req.path !== '/html/') return sendText(res, 404, 'text/html', '<h1>Not Found</h1>');
    if (mode === 'limited-202') return sendText(res, 202, 'text/html', BOT_CHECK);
    if (mode === 'limited-403') return sendText(res, 403, 'text/html', BOT_CHECK);
    if (mode === 'limited-200') return sendText(res, 200, 'text/html', BOT_CHECK);
    if (mode === 'other-layout') return sendText(res, 200, 'text/html', page('<p>Something else</p>'));
    const q = new URLSearchParams(req.rawBody).get('q') ?? '';
    if (q.includes('nothing-at-all')) {
      return sendText(res, 200, 'text/html', page('<div class="no-results">No  results.</div>'));
    }
    const hits = searchCorpus(q, docs).map((d, i) => result(d, i, q));
    sendText(res, 200, 'text/html; charset=UTF-8', page([AD, ...hits].join('\n')));
  });
  return Object.assign(fake, {
    setMode: (next: FakeDdgsMode) => {
      mode = next;
    },
    forms: () => fake.requests.filter((r) => r.path === '/html/').map((r) => new URLSearchParams(r.rawBody)),
  });
}
