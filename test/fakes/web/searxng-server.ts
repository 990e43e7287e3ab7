// A fake SearXNG instance: GET /search?q=...&format=json; 403 (as SearXNG does) when json is not an allowed format.
import { CORPUS, type CorpusDoc, searchCorpus } from './corpus.js';
import { type HttpFake, sendJson, sendText, startHttpFake } from './http-fake.js';

export interface FakeSearxngOptions {
  docs?: readonly CorpusDoc[];
  /** false makes format=json answer 403, like an instance whose settings.yml lacks json */
  json?: boolean;
  /** a path prefix the instance is served under, e.g. `/searx` */
  prefix?: string;
}

export function startFakeSearxng(options: FakeSearxngOptions = {}): Promise<HttpFake> {
  const docs = options.docs ?? CORPUS;
  const prefix = options.prefix ?? '';
  return startHttpFake((req, res) => {
    if (req.path !== `${prefix}/search`) return sendText(res, 404, 'text/html', '<h1>Not Found</h1>');
    const format = req.query.get('format') ?? 'html';
    if (format !== 'json' || options.json === false) {
      return sendText(
        res,
        403,
        'text/html; charset=utf-8',
        '<!doctype html><html><body><h1>403 Forbidden</h1></body></html>',
      );
    }
    const q = req.query.get('q') ?? '';
    const results = searchCorpus(q, docs).map((d, i) => ({
      url: d.url,
      title: d.title,
      content: d.snippet,
      engine: 'duckduckgo',
      parsed_url: ['https', new URL(d.url).hostname, new URL(d.url).pathname, '', '', ''],
      template: 'default.html',
      engines: ['duckduckgo', 'brave'],
      positions: [i + 1],
      score: 2 / (i + 1),
      category: 'general',
      publishedDate: null,
    }));
    sendJson(res, 200, {
      query: q,
      number_of_results: results.length,
      results,
      answers: [],
      corrections: [],
      infoboxes: [],
      suggestions: [],
      unresponsive_engines: [],
    });
  });
}
