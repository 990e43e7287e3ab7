// A fake of the Parallel Search and Extract APIs with `x-api-key`: POST /v1/search {search_queries, objective, mode?,
// advanced_settings: {max_results}} -> {search_id, results: [{url, title, publish_date, excerpts}], session_id};
// POST /v1/extract {urls, advanced_settings: {full_content}} -> {extract_id, results: [{url, title, excerpts,
// full_content}], errors: [{url, error_type, http_status_code, content}]}. Errors in Parallel's shape:
// {error: {ref_id, message, detail}}.
import { CORPUS, type CorpusDoc, corpusDoc, searchCorpus } from './corpus.js';
import { type HttpFake, sendJson, startHttpFake } from './http-fake.js';

export interface FakeParallelOptions {
  key: string;
  docs?: readonly CorpusDoc[];
}

const error = (message: string, detail: unknown = null) => ({ error: { ref_id: 'fake-ref', message, detail } });

export function startFakeParallel(options: FakeParallelOptions): Promise<HttpFake> {
  const docs = options.docs ?? CORPUS;
  return startHttpFake((req, res) => {
    if (req.method !== 'POST' || !['/v1/search', '/v1/extract'].includes(req.path)) {
      return sendJson(res, 404, error('Not Found'));
    }
    if (req.headers['x-api-key'] !== options.key) return sendJson(res, 401, error('Invalid API key'));
    if (req.path === '/v1/extract') {
      const { urls, advanced_settings } = (req.body ?? {}) as {
        urls?: unknown;
        advanced_settings?: { full_content?: unknown };
      };
      const list = Array.isArray(urls) ? urls.map(String) : [];
      const full = advanced_settings?.full_content === true;
      const found = list.map((url) => ({ url, doc: corpusDoc(url, docs) }));
      return sendJson(res, 200, {
        extract_id: 'extract_fake',
        results: found.flatMap(({ url, doc }) =>
          doc
            ? [{ url, title: doc.title, excerpts: [doc.snippet], ...(full ? { full_content: doc.markdown } : {}) }]
            : [],
        ),
        errors: found
          .filter(({ doc }) => !doc)
          .map(({ url }) => ({
            url,
            error_type: 'fetch_error',
            http_status_code: 404,
            content: `Error fetching content from ${url}`,
          })),
        session_id: 'session_fake',
      });
    }
    const body = (req.body ?? {}) as {
      search_queries?: unknown;
      objective?: unknown;
      mode?: unknown;
      advanced_settings?: { max_results?: unknown };
    };
    const queries = Array.isArray(body.search_queries) ? body.search_queries.map(String) : [];
    if (queries.length === 0 || queries.some((q) => q.length > 200)) {
      return sendJson(res, 422, error('Request validation error', [{ loc: ['body', 'search_queries'] }]));
    }
    if (body.mode !== undefined && body.mode !== 'basic' && body.mode !== 'advanced') {
      return sendJson(res, 422, error('Request validation error', [{ loc: ['body', 'mode'] }]));
    }
    const max = typeof body.advanced_settings?.max_results === 'number' ? body.advanced_settings.max_results : 10;
    const results = searchCorpus(`${queries.join(' ')} ${String(body.objective ?? '')}`, docs)
      .slice(0, max)
      .map((d) => ({
        url: d.url,
        title: d.title,
        publish_date: '2025-01-15',
        excerpts: [d.snippet, d.markdown.replace(/^#.*\n+/, '')],
      }));
    sendJson(res, 200, { search_id: 'search_fake', results, session_id: 'session_fake' });
  });
}
