// A fake of the Firecrawl v2 API: POST /v2/search, /v2/scrape, /v2/crawl and GET|DELETE /v2/crawl/{id}, Bearer auth.
import { CORPUS, type CorpusDoc, corpusDoc, searchCorpus } from './corpus.js';
import { type HttpFake, sendJson, startHttpFake } from './http-fake.js';

export interface FakeFirecrawlOptions {
  key: string;
  docs?: readonly CorpusDoc[];
  /** status polls a crawl answers "scraping" before "completed" (default 1) */
  pollsBeforeDone?: number;
}

export interface FakeFirecrawl extends HttpFake {
  /** crawl ids cancelled with DELETE */
  readonly cancelled: string[];
}

function scraped(doc: CorpusDoc) {
  return {
    markdown: doc.markdown,
    metadata: {
      title: doc.title,
      description: doc.snippet,
      language: 'en',
      sourceURL: doc.url,
      url: doc.url,
      statusCode: 200,
      contentType: 'text/html; charset=utf-8',
      scrapeId: 'fake-scrape',
    },
  };
}

export async function startFakeFirecrawl(options: FakeFirecrawlOptions): Promise<FakeFirecrawl> {
  const docs = options.docs ?? CORPUS;
  const jobs = new Map<string, { polls: number; url: string; limit: number }>();
  const cancelled: string[] = [];
  let nextId = 1;
  const fake = await startHttpFake((req, res) => {
    if (req.headers.authorization !== `Bearer ${options.key}`) {
      return sendJson(res, 401, { success: false, error: 'Unauthorized: Invalid token' });
    }
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (req.method === 'POST' && req.path === '/v2/search') {
      const limit = typeof body.limit === 'number' ? body.limit : 5;
      const web = searchCorpus(String(body.query ?? ''), docs)
        .slice(0, limit)
        .map((d, i) => ({ url: d.url, title: d.title, description: d.snippet, position: i + 1 }));
      return sendJson(res, 200, { success: true, data: { web }, creditsUsed: 2, id: 'fake-search' });
    }
    if (req.method === 'POST' && req.path === '/v2/scrape') {
      const url = String(body.url ?? '');
      const doc = corpusDoc(url, docs);
      if (!doc) {
        return sendJson(res, 200, {
          success: true,
          data: { markdown: '', metadata: { sourceURL: url, url, statusCode: 404, error: 'Not Found' } },
        });
      }
      return sendJson(res, 200, { success: true, data: scraped(doc) });
    }
    if (req.method === 'POST' && req.path === '/v2/crawl') {
      const id = `00000000-0000-4000-8000-${String(nextId++).padStart(12, '0')}`;
      jobs.set(id, { polls: 0, url: String(body.url ?? ''), limit: typeof body.limit === 'number' ? body.limit : 10 });
      return sendJson(res, 200, { success: true, id, url: `${fake.url}/v2/crawl/${id}` });
    }
    const m = /^\/v2\/crawl\/([\w-]+)$/.exec(req.path);
    if (m?.[1]) {
      const job = jobs.get(m[1]);
      if (!job) return sendJson(res, 404, { success: false, error: 'Crawl job not found' });
      if (req.method === 'DELETE') {
        cancelled.push(m[1]);
        return sendJson(res, 200, { status: 'cancelled' });
      }
      job.polls += 1;
      const host = URL.canParse(job.url) ? new URL(job.url).host : '';
      const pages = docs.filter((d) => new URL(d.url).host === host).slice(0, job.limit);
      const done = job.polls > (options.pollsBeforeDone ?? 1);
      return sendJson(res, 200, {
        status: done ? 'completed' : 'scraping',
        total: pages.length,
        completed: done ? pages.length : 0,
        creditsUsed: pages.length,
        expiresAt: '2030-01-01T00:00:00.000Z',
        next: null,
        data: done ? pages.map(scraped) : [],
      });
    }
    sendJson(res, 404, { success: false, error: `Not found: ${req.method} ${req.path}` });
  });
  return Object.assign(fake, { cancelled });
}
