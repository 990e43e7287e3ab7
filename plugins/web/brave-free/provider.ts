/** Brave Search: the Web Search API, GET /res/v1/web/search with an X-Subscription-Token header. */

import type { WebApiSpec, WebSearchOptions } from '@hermes/plugin-sdk';
import { ApiWebProvider, asObject, asString, countWithin, headerAuth, hitsOf, searchAnswer } from '@hermes/plugin-sdk';

/** The most results the Web Search API returns per request. */
const MAX_COUNT = 20;

/** Brave marks query terms with <strong> and escapes entities; the model gets plain text. */
function plain(value: unknown): string {
  return asString(value)
    .replace(/<[^>]*>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** Brave's API: the key in X-Subscription-Token; BRAVE_SEARCH_BASE_URL for a proxy or a test fake. */
const BRAVE_API: WebApiSpec = {
  service: 'Brave Search',
  keyVar: 'BRAVE_SEARCH_API_KEY',
  baseUrlVars: ['BRAVE_SEARCH_BASE_URL'],
  defaultBaseUrl: 'https://api.search.brave.com',
  auth: headerAuth('X-Subscription-Token'),
};

/** Search-only provider for the Brave Search Web Search API (GET /res/v1/web/search). */
export class BraveSearchProvider extends ApiWebProvider {
  // Stable id for web.search_backend / web.backend: lowercase, hyphens permitted.
  readonly name = 'brave-free';
  readonly displayName = 'Brave Search (free tier)';
  protected readonly apiSpec = BRAVE_API;

  // Having search() and no extract() or crawl() is what makes it search-only.
  override search(query: string, limit: number, { signal }: WebSearchOptions) {
    return searchAnswer(async () => {
      const answer = await this.api.request('res/v1/web/search', {
        query: { q: query, count: countWithin(limit, MAX_COUNT) },
        signal,
      });
      return hitsOf(asObject(asObject(answer).web).results, (r) => plain(r.description), plain);
    });
  }
}
