// A fake of the Tavily API: POST /search, /extract, /crawl with `Authorization: Bearer <key>`.
import { CORPUS, type CorpusDoc, corpusDoc, searchCorpus } from './corpus.js';
import { type HttpFake, sendJson, startHttpFake } from './http-fake.js';

export interface FakeTavilyOptions {
  key: string;
  docs?: readonly CorpusDoc[];
}

const plain = (markdown: string) => markdown.replace(/^#+\s*/gm, '').replace(/`/g, '');

export function startFakeTavily(options: FakeTavilyOptions): Promise<HttpFake> {
  const docs = options.docs ?? CORPUS;
  return startHttpFake((req, res) => {
    if (req.headers.authorization !== `Bearer ${options.key}`) {
      return sendJson(res, 401, { detail: { error: 'Unauthorized: missing or invalid API key.' } });
    }
    const body = (req.body ?? {}) as Record<string, unknown>;
    const started = Date.now();
    const took = () => ((Date.now() - started) / 1000).toFixed(2);
    if (req.method === 'POST' && req.path === '/search') {
      if (typeof body.query !== 'string' || !body.query) {
        return sendJson(res, 400, { detail: { error: 'Query is missing.' } });
      }
      const max = typeof body.max_results === 'number' ? body.max_results : 5;
      const results = searchCorpus(body.query, docs)
        .slice(0, max)
        .map((d, i) => ({ title: d.title, url: d.url, content: d.snippet, score: 0.9 - i * 0.1, raw_content: null }));
      return sendJson(res, 200, {
        query: body.query,
        follow_up_questions: null,
        answer: null,
        images: [],
        results,
        response_time: took(),
        request_id: 'fake-tavily-search',
      });
    }
    if (req.method === 'POST' && req.path === '/extract') {
      const urls =
        typeof body.urls === 'string' ? [body.urls] : Array.isArray(body.urls) ? (body.urls as string[]) : [];
      const text = body.format === 'text';
      const results: object[] = [];
      const failed: object[] = [];
      for (const url of urls) {
        const doc = corpusDoc(url, docs);
        if (doc) results.push({ url, raw_content: text ? plain(doc.markdown) : doc.markdown, images: [] });
        else failed.push({ url, error: 'Failed to fetch url' });
      }
      return sendJson(res, 200, {
        results,
        failed_results: failed,
        response_time: took(),
        request_id: 'fake-tavily-extract',
      });
    }
    if (req.method === 'POST' && req.path === '/crawl') {
      const root = typeof body.url === 'string' ? body.url : '';
      const limit = typeof body.limit === 'number' ? body.limit : 50;
      const host = URL.canParse(root) ? new URL(root).host : '';
      const results = docs
        .filter((d) => new URL(d.url).host === host)
        .slice(0, limit)
        .map((d) => ({ url: d.url, raw_content: d.markdown, favicon: null }));
      return sendJson(res, 200, { base_url: root, results, response_time: took(), request_id: 'fake-tavily-crawl' });
    }
    sendJson(res, 404, { detail: { error: 'Not Found' } });
  });
}
