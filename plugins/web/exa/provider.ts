/**
 * Exa on https://api.exa.ai (or EXA_BASE_URL), `x-api-key: <EXA_API_KEY>`:
 *   search  POST /search {query, numResults, type: "auto", contents: {text: {maxCharacters}}}
 *   extract POST /contents {urls, text: true} -> {results: [{url, title, text}], statuses: [{id, status, error}]}
 *   crawl   POST /contents {urls: [start], text: true, subpages, subpageTarget} -> results[0].subpages
 * Exa returns clean text, so both formats get the same content. A crawl is one level of subpages
 * (Exa picks them); `depth` beyond 1 is not supported and `instructions` become the subpage target.
 */

import type { WebApiSpec, WebCrawlOptions, WebExtractOptions, WebPage, WebSearchOptions } from '@hermes/plugin-sdk';
import {
  ApiWebProvider,
  asArray,
  asObject,
  asObjects,
  asString,
  countWithin,
  failedPage,
  headerAuth,
  hitsOf,
  pagesAnswer,
  searchAnswer,
  webProviderError,
} from '@hermes/plugin-sdk';

/** Characters of page text asked for per search hit, used as its description. */
const SNIPPET_CHARS = 400;
const MAX_RESULTS = 100;

function pageOf(item: Record<string, unknown>): WebPage {
  const text = asString(item.text);
  const metadata: Record<string, unknown> = {};
  if (asString(item.author)) metadata.author = asString(item.author);
  if (asString(item.publishedDate)) metadata.published = asString(item.publishedDate);
  return {
    url: asString(item.url) || asString(item.id),
    title: asString(item.title),
    content: text,
    raw_content: text,
    ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
  };
}

function statusError(status: Record<string, unknown>): string {
  const error = asObject(status.error);
  const tag = asString(error.tag) || 'error';
  const code = typeof error.httpStatusCode === 'number' ? ` (HTTP ${error.httpStatusCode})` : '';
  return `Exa could not fetch this URL: ${tag}${code}`;
}

/** A search hit's description: Exa's summary, else its highlights, else the page text asked for, on one line. */
function snippetOf(item: Record<string, unknown>): string {
  const text = asString(item.summary) || asArray(item.highlights).map(asString).join(' … ') || asString(item.text);
  return text.replace(/\s+/g, ' ').trim();
}

/** The `statuses` of a /contents answer that report an error. */
function failedStatuses(answer: Record<string, unknown>): Record<string, unknown>[] {
  return asObjects(answer.statuses).filter((s) => asString(s.status) === 'error');
}

/** Exa's API: the key in x-api-key; EXA_BASE_URL for a proxy or a test fake. */
const EXA_API: WebApiSpec = {
  service: 'Exa',
  keyVar: 'EXA_API_KEY',
  baseUrlVars: ['EXA_BASE_URL'],
  defaultBaseUrl: 'https://api.exa.ai',
  auth: headerAuth('x-api-key'),
};

export class ExaProvider extends ApiWebProvider {
  readonly name = 'exa';
  readonly displayName = 'Exa';
  protected readonly apiSpec = EXA_API;

  override search(query: string, limit: number, { signal }: WebSearchOptions) {
    return searchAnswer(async () => {
      const answer = await this.api.post(
        'search',
        {
          query,
          numResults: countWithin(limit, MAX_RESULTS),
          type: 'auto',
          contents: { text: { maxCharacters: SNIPPET_CHARS } },
        },
        signal,
      );
      return hitsOf(answer.results, snippetOf);
    });
  }

  override extract(urls: string[], { signal }: WebExtractOptions) {
    return pagesAnswer(async () => {
      const answer = await this.api.post('contents', { urls, text: true }, signal);
      const pages = asObjects(answer.results).map(pageOf);
      const failed = failedStatuses(answer).map((s) => failedPage(asString(s.id), statusError(s)));
      return [...pages, ...failed];
    });
  }

  override crawl(url: string, { signal, limit, instructions }: WebCrawlOptions) {
    return pagesAnswer(async () => {
      const answer = await this.api.post(
        'contents',
        {
          urls: [url],
          text: true,
          subpages: Math.max(0, limit - 1),
          ...(instructions ? { subpageTarget: [instructions] } : {}),
        },
        signal,
      );
      const [root] = asObjects(answer.results);
      if (!root) {
        const [failed] = failedStatuses(answer);
        const why = failed ? statusError(failed) : 'Exa returned no page for the start URL';
        throw webProviderError(why);
      }
      const pages = [pageOf(root), ...asObjects(root.subpages).map(pageOf)];
      return pages.slice(0, limit);
    });
  }
}
