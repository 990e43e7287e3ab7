/**
 * Firecrawl v2 on https://api.firecrawl.dev (or FIRECRAWL_BASE_URL / FIRECRAWL_API_URL for a
 * self-hosted instance), `Authorization: Bearer <FIRECRAWL_API_KEY>`:
 *   search  POST /v2/search {query, limit}         -> {success, data: {web: [{url, title, description, position}]}}
 *   extract POST /v2/scrape {url, formats} per URL  -> {success, data: {markdown, metadata: {title, statusCode, ...}}}
 *   crawl   POST /v2/crawl {url, limit, ...}        -> {success, id}; then GET /v2/crawl/{id} until completed
 * A crawl still running when the call is aborted (timeout, interruption) is cancelled with DELETE.
 */

import type {
  ProviderEnv,
  WebApiRequest,
  WebApiSpec,
  WebCrawlOptions,
  WebExtractOptions,
  WebPage,
  WebSearchOptions,
} from '@hermes/plugin-sdk';
import {
  ApiWebProvider,
  abortableSleep,
  asObject,
  asObjects,
  asString,
  bearerAuth,
  errorText,
  failedPage,
  mapLimit,
  pagesAnswer,
  searchAnswer,
  WebApiError,
  webProviderError,
} from '@hermes/plugin-sdk';
import { markdownToText } from './markdown-text.js';

/** Scrapes running at once for one extract call. */
const SCRAPE_CONCURRENCY = 3;
/** Answers that mean the key or the account is the problem, not the URL. */
const ACCOUNT_STATUSES = new Set([401, 402, 403]);
/** Waits between crawl status polls; the last one repeats. */
const POLL_DELAYS_MS = [250, 500, 1_000, 2_000];

export interface FirecrawlOptions {
  env?: ProviderEnv;
  /** crawl status poll delays (tests shorten them) */
  pollDelaysMs?: readonly number[];
}

/** A scraped document (`{markdown, metadata}`) as a page of the envelope. */
function pageOf(doc: Record<string, unknown>, fallbackUrl: string, format: 'markdown' | 'text'): WebPage {
  const metadata = asObject(doc.metadata);
  const markdown = asString(doc.markdown);
  const status = typeof metadata.statusCode === 'number' ? metadata.statusCode : 200;
  const url = asString(metadata.sourceURL) || asString(metadata.url) || fallbackUrl;
  const page: WebPage = {
    url,
    title: asString(metadata.title),
    content: format === 'text' ? markdownToText(markdown) : markdown,
    raw_content: markdown,
    metadata: {
      status,
      ...(asString(metadata.description) ? { description: asString(metadata.description) } : {}),
      ...(asString(metadata.language) ? { language: asString(metadata.language) } : {}),
    },
  };
  if (status >= 400) page.error = `HTTP ${status}${asString(metadata.error) ? `: ${asString(metadata.error)}` : ''}`;
  return page;
}

/** A search hit of v2 (grouped by source) or v1 (older self-hosted: a flat list). */
function searchItems(data: unknown): Record<string, unknown>[] {
  return asObjects(Array.isArray(data) ? data : asObject(data).web);
}

/** The `next` piece of a large crawl result: an absolute URL, else a path under the base URL. */
function nextPiece(next: string): string | URL {
  return /^https?:\/\//.test(next) ? new URL(next) : next;
}

/** Firecrawl's API: Bearer auth; a self-hosted instance at FIRECRAWL_BASE_URL (or Firecrawl's own FIRECRAWL_API_URL). */
const FIRECRAWL_API: WebApiSpec = {
  service: 'Firecrawl',
  keyVar: 'FIRECRAWL_API_KEY',
  baseUrlVars: ['FIRECRAWL_BASE_URL', 'FIRECRAWL_API_URL'],
  defaultBaseUrl: 'https://api.firecrawl.dev',
  auth: bearerAuth,
};

export class FirecrawlProvider extends ApiWebProvider {
  readonly name = 'firecrawl';
  readonly displayName = 'Firecrawl';
  protected readonly apiSpec = FIRECRAWL_API;
  readonly #pollDelays: readonly number[];

  constructor(options: FirecrawlOptions = {}) {
    super(options.env ?? process.env);
    this.#pollDelays = options.pollDelaysMs ?? POLL_DELAYS_MS;
  }

  /** One API call; an answer with `success: false` is an error. */
  async #call(path: string | URL, request: WebApiRequest): Promise<Record<string, unknown>> {
    const answer = asObject(await this.api.request(path, request));
    if (answer.success === false) throw webProviderError(`Firecrawl: ${asString(answer.error) || 'request failed'}`);
    return answer;
  }

  override search(query: string, limit: number, { signal }: WebSearchOptions) {
    return searchAnswer(async () => {
      const answer = await this.#call('v2/search', { method: 'POST', body: { query, limit }, signal });
      return searchItems(answer.data).map((r) => ({
        title: asString(r.title) || asString(asObject(r.metadata).title),
        url: asString(r.url),
        description: asString(r.description) || asString(asObject(r.metadata).description),
        position: typeof r.position === 'number' && r.position >= 1 ? r.position : undefined,
      }));
    });
  }

  async #scrape(url: string, format: 'markdown' | 'text', signal: AbortSignal): Promise<WebPage> {
    try {
      const answer = await this.#call('v2/scrape', {
        method: 'POST',
        body: { url, formats: ['markdown'], onlyMainContent: true },
        signal,
      });
      return pageOf(asObject(answer.data), url, format);
    } catch (err) {
      // a bad key or an empty account fails the whole call; anything else is this URL's problem
      if (err instanceof WebApiError && ACCOUNT_STATUSES.has(err.status ?? 0)) throw err;
      return failedPage(url, errorText(err));
    }
  }

  override extract(urls: string[], { format, signal }: WebExtractOptions) {
    return pagesAnswer(() => mapLimit(urls, SCRAPE_CONCURRENCY, (url) => this.#scrape(url, format, signal)));
  }

  override crawl(url: string, { format, signal, limit, depth, instructions }: WebCrawlOptions) {
    let id = '';
    return pagesAnswer(async () => {
      const started = await this.#call('v2/crawl', {
        method: 'POST',
        body: {
          url,
          limit,
          maxDiscoveryDepth: depth,
          scrapeOptions: { formats: ['markdown'], onlyMainContent: true },
          ...(instructions ? { prompt: instructions } : {}),
        },
        signal,
      });
      id = asString(started.id);
      if (!id) throw webProviderError('Firecrawl started no crawl job (no id in its answer)');
      for (let poll = 0; ; poll++) {
        await abortableSleep(this.#pollDelays[Math.min(poll, this.#pollDelays.length - 1)] ?? 1_000, signal);
        signal.throwIfAborted();
        const status = await this.#call(`v2/crawl/${encodeURIComponent(id)}`, { method: 'GET', signal });
        const state = asString(status.status);
        if (state === 'failed') throw webProviderError(`Firecrawl crawl ${id} failed`);
        if (state !== 'completed') continue;
        const docs = asObjects(status.data);
        // a large result comes in pieces: `next` is the URL of the following one
        let more = asString(status.next);
        while (more && docs.length < limit) {
          const piece = await this.#call(nextPiece(more), { method: 'GET', signal });
          docs.push(...asObjects(piece.data));
          more = asString(piece.next);
        }
        id = '';
        return docs.slice(0, limit).map((d) => pageOf(d, url, format));
      }
    }).finally(() => {
      if (id && signal.aborted) this.#cancel(id);
    });
  }

  /** Best-effort cancel of a crawl job nobody waits for any more. */
  #cancel(id: string): void {
    this.#call(`v2/crawl/${encodeURIComponent(id)}`, { method: 'DELETE', signal: AbortSignal.timeout(5_000) }).catch(
      () => undefined, // the job expires on its own; the caller already has its answer
    );
  }
}
