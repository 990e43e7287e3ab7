/**
 * The key-free extract provider: no service, no key. It fetches each page with the host's guarded
 * `fetchPage` (http(s) only, private addresses refused after DNS and after every redirect, time
 * and size bounded) and turns HTML into Markdown or text (html/: its own parser, pruning of the
 * page furniture, turndown to render). Plain-text pages pass through. Its crawl is a
 * breadth-first walk of same-site links; `instructions` only reorder the links it follows
 * (links whose URL or text share words with them go first). Not a search provider.
 */
import {
  errorText,
  type FetchedWebPage,
  type FetchWebPage,
  failedPage,
  mapLimit,
  type WebContentFormat,
  type WebCrawlOptions,
  type WebExtractOptions,
  type WebExtractResponse,
  type WebPage,
  WebProviderBase,
} from '@hermes/plugin-sdk';
import type { PageLink } from './html/links.js';

/** The HTML converter, imported on first use: registering the provider at start-up costs next to nothing. */
type Converter = typeof import('./html/convert.js');
let converter: Promise<Converter> | null = null;
const loadConverter = (): Promise<Converter> => {
  converter ??= import('./html/convert.js');
  return converter;
};

/** Pages fetched at once. */
const CONCURRENCY = 3;

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

interface ReadPage {
  page: WebPage;
  links: PageLink[];
}

/** Turns a fetched body into a page of the envelope (and its links, when asked for). */
export async function pageFromFetch(
  url: string,
  fetched: FetchedWebPage,
  format: WebContentFormat,
  withLinks: boolean,
): Promise<ReadPage> {
  const metadata: Record<string, unknown> = { status: fetched.status, content_type: fetched.contentType };
  if (fetched.url !== url) metadata.final_url = fetched.url;
  if (fetched.truncated) metadata.truncated = true;
  if (fetched.status >= 400) {
    return { page: { ...failedPage(url, `HTTP ${fetched.status}`), metadata }, links: [] };
  }
  if (!fetched.text && fetched.contentType && !fetched.contentType.startsWith('text/')) {
    return {
      page: { ...failedPage(url, `cannot read ${fetched.contentType} (only HTML and text pages)`), metadata },
      links: [],
    };
  }
  if (!HTML_TYPES.has(fetched.contentType) && !/^\s*<(?:!doctype html|html)[\s>]/i.test(fetched.text)) {
    return { page: { url, title: '', content: fetched.text.trim(), raw_content: fetched.text, metadata }, links: [] };
  }
  const { info, content, links } = (await loadConverter()).convertHtml(fetched.text, fetched.url, format, withLinks);
  if (info.description) metadata.description = info.description;
  if (info.lang) metadata.lang = info.lang;
  if (info.canonical) metadata.canonical = info.canonical;
  if (info.siteName) metadata.site_name = info.siteName;
  if (info.author) metadata.author = info.author;
  if (info.published) metadata.published = info.published;
  return { page: { url, title: info.title, content, raw_content: fetched.text, metadata }, links };
}

/** Words of the crawl instructions worth matching against links. */
function keywords(instructions: string | undefined): string[] {
  return (instructions ?? '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 3);
}

function score(link: PageLink, words: readonly string[]): number {
  const hay = `${decodeURIComponent(new URL(link.url).pathname)} ${link.text}`.toLowerCase();
  return words.reduce((n, w) => n + (hay.includes(w) ? 1 : 0), 0);
}

/** Same site: the same host, `www.` or not. */
function sameSite(a: URL, b: URL): boolean {
  const bare = (h: string) => h.replace(/^www\./, '');
  return a.protocol === b.protocol && bare(a.host) === bare(b.host);
}

/** Extract and crawl (it has no search()), always available. */
export class FetchProvider extends WebProviderBase {
  readonly name = 'fetch';
  readonly displayName = 'Direct fetch (no key)';
  readonly fallback = true;

  isAvailable(): boolean {
    return true;
  }

  async #read(
    url: string,
    format: WebContentFormat,
    fetchPage: FetchWebPage,
    signal: AbortSignal,
    withLinks: boolean,
  ): Promise<ReadPage> {
    let fetched: FetchedWebPage;
    try {
      fetched = await fetchPage(url, { signal });
    } catch (err) {
      return { page: failedPage(url, errorText(err)), links: [] };
    }
    try {
      return await pageFromFetch(url, fetched, format, withLinks);
    } catch (err) {
      return { page: failedPage(url, `could not convert the page: ${errorText(err)}`), links: [] };
    }
  }

  override async extract(
    urls: string[],
    { format, signal, fetchPage }: WebExtractOptions,
  ): Promise<WebExtractResponse> {
    const read = await mapLimit(urls, CONCURRENCY, (url) => this.#read(url, format, fetchPage, signal, false));
    return { success: true, data: read.map((r) => r.page) };
  }

  override async crawl(start: string, options: WebCrawlOptions): Promise<WebExtractResponse> {
    const { format, signal, fetchPage, limit, depth } = options;
    const origin = new URL(start);
    const words = keywords(options.instructions);
    const seen = new Set([origin.href.replace(/#.*$/, '')]);
    let queue: { url: string; depth: number; score: number }[] = [{ url: start, depth: 0, score: 0 }];
    const pages: WebPage[] = [];
    while (queue.length > 0 && pages.length < limit && !signal.aborted) {
      const batch = queue.splice(0, Math.min(CONCURRENCY, limit - pages.length));
      const read = await Promise.all(
        batch.map((item) => this.#read(item.url, format, fetchPage, signal, item.depth < depth)),
      );
      read.forEach((r, i) => {
        const item = batch[i];
        if (!item) return;
        pages.push(r.page);
        for (const link of r.links) {
          const target = new URL(link.url);
          if (!sameSite(origin, target) || seen.has(link.url)) continue;
          seen.add(link.url);
          queue.push({ url: link.url, depth: item.depth + 1, score: score(link, words) });
        }
      });
      // breadth first; among links of the same depth, those matching the instructions first
      if (words.length > 0)
        queue = queue
          .map((q, i) => ({ q, i }))
          .sort((a, b) => a.q.depth - b.q.depth || b.q.score - a.q.score || a.i - b.i)
          .map((x) => x.q);
    }
    const [first] = pages;
    if (first?.error && pages.length === 1) return { success: false, error: `${start}: ${first.error}` };
    return { success: true, data: pages };
  }
}
