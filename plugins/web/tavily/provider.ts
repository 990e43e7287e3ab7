/**
 * Tavily: POST /search, /extract and /crawl on https://api.tavily.com (or TAVILY_BASE_URL), with
 * `Authorization: Bearer <TAVILY_API_KEY>`. Extract answers `{results: [{url, raw_content}],
 * failed_results: [{url, error}]}`; crawl answers `{base_url, results: [{url, raw_content}]}`.
 */

import type { WebApiSpec, WebCrawlOptions, WebExtractOptions, WebPage, WebSearchOptions } from '@hermes/plugin-sdk';
import {
  ApiWebProvider,
  asObjects,
  asString,
  bearerAuth,
  countWithin,
  failedPage,
  hitsOf,
  pagesAnswer,
  searchAnswer,
} from '@hermes/plugin-sdk';

/** Tavily's range for max_results, and for a crawl's max_depth. */
const MAX_RESULTS = 20;
const MAX_DEPTH = 5;

/** The first Markdown heading (or the first non-empty line) of a page, as its title. */
function titleOf(content: string): string {
  const heading = /^#{1,6}\s+(.+)$/m.exec(content)?.[1];
  const line = heading ?? content.split('\n').find((l) => l.trim() !== '') ?? '';
  return line.trim().slice(0, 200);
}

function pageOf(item: Record<string, unknown>): WebPage {
  const content = asString(item.raw_content);
  const title = asString(item.title) || titleOf(content);
  return { url: asString(item.url), title, content, raw_content: content };
}

/** Tavily's API: Bearer auth; TAVILY_BASE_URL for a proxy or a test fake. */
const TAVILY_API: WebApiSpec = {
  service: 'Tavily',
  keyVar: 'TAVILY_API_KEY',
  baseUrlVars: ['TAVILY_BASE_URL'],
  defaultBaseUrl: 'https://api.tavily.com',
  auth: bearerAuth,
};

export class TavilyProvider extends ApiWebProvider {
  readonly name = 'tavily';
  readonly displayName = 'Tavily';
  protected readonly apiSpec = TAVILY_API;

  override search(query: string, limit: number, { signal }: WebSearchOptions) {
    return searchAnswer(async () => {
      const answer = await this.api.post(
        'search',
        { query, max_results: countWithin(limit, MAX_RESULTS), search_depth: 'basic', topic: 'general' },
        signal,
      );
      return hitsOf(answer.results, (r) => asString(r.content));
    });
  }

  override extract(urls: string[], { format, signal }: WebExtractOptions) {
    return pagesAnswer(async () => {
      const answer = await this.api.post('extract', { urls, format, extract_depth: 'basic' }, signal);
      const pages = asObjects(answer.results).map(pageOf);
      const failed = asObjects(answer.failed_results).map((f) =>
        failedPage(asString(f.url), asString(f.error) || 'Tavily could not extract this URL'),
      );
      return [...pages, ...failed];
    });
  }

  override crawl(url: string, { format, signal, limit, depth, instructions }: WebCrawlOptions) {
    return pagesAnswer(async () => {
      const answer = await this.api.post(
        'crawl',
        {
          url,
          max_depth: countWithin(depth, MAX_DEPTH),
          limit,
          format,
          extract_depth: 'basic',
          ...(instructions ? { instructions } : {}),
        },
        signal,
      );
      return asObjects(answer.results).map(pageOf).slice(0, limit);
    });
  }
}
