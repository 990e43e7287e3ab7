/**
 * Firecrawl v2 on https://api.firecrawl.dev (or FIRECRAWL_BASE_URL / FIRECRAWL_API_URL for a
 * self-hosted instance), `Authorization: Bearer <FIRECRAWL_API_KEY>`:
 *   search  POST /v2/search {query, limit}         -> {success, data: {web: [{url, title, description, position}]}}
 *   extract POST /v2/scrape {url, formats} per URL  -> {success, data: {markdown, metadata: {title, statusCode, ...}}}
 *   crawl   POST /v2/crawl {url, limit, ...}        -> {success, id}; then GET /v2/crawl/{id} until completed
 * A crawl still running when the call is aborted (timeout, interruption) is cancelled with DELETE.
 */
import {
  apiUrl,
  asArray,
  asObject,
  asString,
  ERROR_CODES,
  envValue,
  errorText,
  HermesError,
  requestJson,
  WebApiError,
  type WebApiRequest,
  type WebCrawlOptions,
  type WebExtractOptions,
  type WebExtractResponse,
  type WebPage,
  type WebSearchOptions,
  type WebSearchProvider,
  type WebSearchResponse,
} from '@hermes/plugin-sdk';
import { markdownToText } from './markdown-text.js';

const DEFAULT_BASE_URL = 'https://api.firecrawl.dev';
/** Scrapes running at once for one extract call. */
const SCRAPE_CONCURRENCY = 3;
/** Answers that mean the key or the account is the problem, not the URL. */
const ACCOUNT_STATUSES = new Set([401, 402, 403]);
/** Waits between crawl status polls; the last one repeats. */
const POLL_DELAYS_MS = [250, 500, 1_000, 2_000];

export interface FirecrawlOptions {
  env?: Readonly<Record<string, string | undefined>>;
  /** crawl status poll delays (tests shorten them) */
  pollDelaysMs?: readonly number[];
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
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

export class FirecrawlProvider implements WebSearchProvider {
  readonly name = 'firecrawl';
  readonly displayName = 'Firecrawl';
  readonly #env: Readonly<Record<string, string | undefined>>;
  readonly #pollDelays: readonly number[];

  constructor(options: FirecrawlOptions = {}) {
    this.#env = options.env ?? process.env;
    this.#pollDelays = options.pollDelaysMs ?? POLL_DELAYS_MS;
  }

  isAvailable(): boolean {
    return envValue(this.#env, 'FIRECRAWL_API_KEY') !== undefined;
  }

  supportsSearch(): boolean {
    return true;
  }

  supportsExtract(): boolean {
    return true;
  }

  supportsCrawl(): boolean {
    return true;
  }

  #base(): string {
    return envValue(this.#env, 'FIRECRAWL_BASE_URL') ?? envValue(this.#env, 'FIRECRAWL_API_URL') ?? DEFAULT_BASE_URL;
  }

  async #call(path: string, request: WebApiRequest): Promise<Record<string, unknown>> {
    const key = envValue(this.#env, 'FIRECRAWL_API_KEY');
    if (!key) throw new HermesError(ERROR_CODES.WEB_PROVIDER, 'FIRECRAWL_API_KEY is not set');
    const url = /^https?:\/\//.test(path) ? path : apiUrl(this.#base(), path);
    const answer = asObject(
      await requestJson('Firecrawl', url, { ...request, headers: { authorization: `Bearer ${key}` } }),
    );
    if (answer.success === false)
      throw new HermesError(ERROR_CODES.WEB_PROVIDER, `Firecrawl: ${asString(answer.error) || 'request failed'}`);
    return answer;
  }

  async search(query: string, limit: number, { signal }: WebSearchOptions): Promise<WebSearchResponse> {
    try {
      const answer = await this.#call('v2/search', { method: 'POST', body: { query, limit }, signal });
      // v2 groups by source ({web: [...]}); v1 (older self-hosted) answers a flat list
      const data = answer.data;
      const items = (Array.isArray(data) ? data : asArray(asObject(data).web)).map(asObject);
      return {
        success: true,
        data: {
          web: items.map((r, i) => ({
            title: asString(r.title) || asString(asObject(r.metadata).title),
            url: asString(r.url),
            description: asString(r.description) || asString(asObject(r.metadata).description),
            position: typeof r.position === 'number' && r.position >= 1 ? r.position : i + 1,
          })),
        },
      };
    } catch (err) {
      return { success: false, error: errorText(err) };
    }
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
      return { url, title: '', content: '', raw_content: '', error: errorText(err) };
    }
  }

  async extract(urls: string[], { format, signal }: WebExtractOptions): Promise<WebExtractResponse> {
    const pages: WebPage[] = new Array(urls.length);
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < urls.length; i = next++) pages[i] = await this.#scrape(urls[i] ?? '', format, signal);
    };
    try {
      await Promise.all(Array.from({ length: Math.min(SCRAPE_CONCURRENCY, urls.length) }, worker));
    } catch (err) {
      return { success: false, error: errorText(err) };
    }
    return { success: true, data: pages };
  }

  async crawl(
    url: string,
    { format, signal, limit, depth, instructions }: WebCrawlOptions,
  ): Promise<WebExtractResponse> {
    let id = '';
    try {
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
      if (!id) return { success: false, error: 'Firecrawl started no crawl job (no id in its answer)' };
      const docs: Record<string, unknown>[] = [];
      for (let poll = 0; ; poll++) {
        await sleep(this.#pollDelays[Math.min(poll, this.#pollDelays.length - 1)] ?? 1_000, signal);
        const status = await this.#call(`v2/crawl/${encodeURIComponent(id)}`, { method: 'GET', signal });
        const state = asString(status.status);
        if (state === 'failed') return { success: false, error: `Firecrawl crawl ${id} failed` };
        if (state !== 'completed') continue;
        docs.push(...asArray(status.data).map(asObject));
        // a large result comes in pieces: `next` is the URL of the following one
        let more = asString(status.next);
        while (more && docs.length < limit) {
          const piece = await this.#call(more, { method: 'GET', signal });
          docs.push(...asArray(piece.data).map(asObject));
          more = asString(piece.next);
        }
        id = '';
        return { success: true, data: docs.slice(0, limit).map((d) => pageOf(d, url, format)) };
      }
    } catch (err) {
      return { success: false, error: errorText(err) };
    } finally {
      if (id && signal.aborted) this.#cancel(id);
    }
  }

  /** Best-effort cancel of a crawl job nobody waits for any more. */
  #cancel(id: string): void {
    this.#call(`v2/crawl/${encodeURIComponent(id)}`, { method: 'DELETE', signal: AbortSignal.timeout(5_000) }).catch(
      () => undefined, // the job expires on its own; the caller already has its answer
    );
  }
}
