// A fake of the Brave Search Web Search API: GET /res/v1/web/search with X-Subscription-Token.
import { CORPUS, type CorpusDoc, searchCorpus } from './corpus.js';
import { type HttpFake, sendJson, startHttpFake } from './http-fake.js';

export interface FakeBraveOptions {
  key: string;
  docs?: readonly CorpusDoc[];
}

/** Brave's error body shape. */
function braveError(status: number, code: string, detail: string) {
  return { type: 'ErrorResponse', error: { id: 'fake-error-id', status, code, detail, meta: {} }, time: 1_700_000_000 };
}

/** Starts the fake; results mark the query terms with <strong> as Brave does. */
export function startFakeBrave(options: FakeBraveOptions): Promise<HttpFake> {
  const docs = options.docs ?? CORPUS;
  return startHttpFake((req, res) => {
    if (req.method !== 'GET' || req.path !== '/res/v1/web/search') {
      return sendJson(res, 404, braveError(404, 'RESOURCE_NOT_FOUND', 'Resource not found'));
    }
    if (req.headers['x-subscription-token'] !== options.key) {
      return sendJson(
        res,
        401,
        braveError(401, 'SUBSCRIPTION_TOKEN_INVALID', 'The provided subscription token is invalid.'),
      );
    }
    const q = req.query.get('q') ?? '';
    if (!q) return sendJson(res, 422, braveError(422, 'VALIDATION', 'Unable to validate request parameter(s)'));
    const count = Math.min(20, Number(req.query.get('count') ?? '20') || 20);
    const words = q
      .toLowerCase()
      .split(/\W+/)
      .filter((w) => w.length > 2);
    const mark = (text: string) =>
      words.reduce((t, w) => t.replace(new RegExp(`(${w})`, 'ig'), '<strong>$1</strong>'), text.replace(/&/g, '&amp;'));
    const results = searchCorpus(q, docs)
      .slice(0, count)
      .map((d) => {
        const url = new URL(d.url);
        return {
          type: 'search_result',
          title: d.title,
          url: d.url,
          is_source_local: false,
          is_source_both: false,
          description: mark(d.snippet),
          profile: { name: url.hostname, url: d.url, long_name: url.hostname, img: '' },
          language: 'en',
          family_friendly: true,
          meta_url: { scheme: 'https', netloc: url.hostname, hostname: url.hostname, favicon: '', path: url.pathname },
        };
      });
    sendJson(res, 200, {
      type: 'search',
      query: {
        original: q,
        show_strict_warning: false,
        is_navigational: false,
        spellcheck_off: true,
        more_results_available: false,
      },
      mixed: {
        type: 'mixed',
        main: results.map((_, index) => ({ type: 'web', index, all: false })),
        top: [],
        side: [],
      },
      web: { type: 'search', results, family_friendly: true },
    });
  });
}
