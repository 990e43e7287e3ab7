// A fake of the Exa API: POST /search and /contents with `x-api-key`.
import { CORPUS, type CorpusDoc, corpusDoc, searchCorpus } from './corpus.js';
import { type HttpFake, sendJson, startHttpFake } from './http-fake.js';

export interface FakeExaOptions {
  key: string;
  docs?: readonly CorpusDoc[];
}

const text = (markdown: string) => markdown.replace(/^#+\s*/gm, '').replace(/`/g, '');

export function startFakeExa(options: FakeExaOptions): Promise<HttpFake> {
  const docs = options.docs ?? CORPUS;
  return startHttpFake((req, res) => {
    if (req.headers['x-api-key'] !== options.key) {
      return sendJson(res, 401, { requestId: 'fake', error: 'Invalid API key', tag: 'INVALID_API_KEY' });
    }
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (req.method === 'POST' && req.path === '/search') {
      const n = typeof body.numResults === 'number' ? body.numResults : 10;
      const contents = (body.contents ?? {}) as { text?: { maxCharacters?: number } | boolean };
      const max = typeof contents.text === 'object' ? (contents.text.maxCharacters ?? 1000) : 1000;
      const results = searchCorpus(String(body.query ?? ''), docs)
        .slice(0, n)
        .map((d) => ({
          id: d.url,
          url: d.url,
          title: d.title,
          publishedDate: '2025-01-01T00:00:00.000Z',
          author: null,
          ...(contents.text ? { text: d.snippet.slice(0, max) } : {}),
        }));
      return sendJson(res, 200, {
        requestId: 'fake-exa-search',
        resolvedSearchType: 'neural',
        searchType: 'auto',
        results,
        costDollars: { total: 0.005 },
      });
    }
    if (req.method === 'POST' && req.path === '/contents') {
      const urls = Array.isArray(body.urls) ? (body.urls as string[]) : [];
      const subpages = typeof body.subpages === 'number' ? body.subpages : 0;
      const results: object[] = [];
      const statuses: object[] = [];
      for (const url of urls) {
        const doc = corpusDoc(url, docs);
        if (!doc) {
          statuses.push({ id: url, status: 'error', error: { tag: 'CRAWL_NOT_FOUND', httpStatusCode: 404 } });
          continue;
        }
        statuses.push({ id: url, status: 'success' });
        const host = new URL(doc.url).host;
        const subs = docs
          .filter((d) => d !== doc && new URL(d.url).host === host)
          .slice(0, subpages)
          .map((d) => ({ id: d.url, url: d.url, title: d.title, text: text(d.markdown) }));
        results.push({
          id: doc.url,
          url: doc.url,
          title: doc.title,
          text: text(doc.markdown),
          author: 'Hermes Team',
          ...(subpages > 0 ? { subpages: subs } : {}),
        });
      }
      return sendJson(res, 200, { requestId: 'fake-exa-contents', results, statuses, costDollars: { total: 0.001 } });
    }
    sendJson(res, 404, { requestId: 'fake', error: 'Not found', tag: 'NOT_FOUND' });
  });
}
