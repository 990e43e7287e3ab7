/**
 * SearXNG: the search API of a self-hosted (or public) instance, GET /search?q=...&format=json.
 * No key. The instance must allow the JSON format (`search.formats: [html, json]` in settings.yml),
 * otherwise it answers 403. SearXNG has no result-count parameter: results are cut to the limit.
 * Search only: pair it with an extract provider (the key-free `fetch` serves web_extract).
 */

import type { WebApiSpec, WebSearchOptions } from '@hermes/plugin-sdk';
import {
  ApiWebProvider,
  asObject,
  asString,
  hitsOf,
  searchAnswer,
  WebApiError,
  webProviderError,
} from '@hermes/plugin-sdk';

/** Hints an instance that refuses JSON (HTTP 403) to allow it. */
function withJsonHint(err: unknown): unknown {
  if (!(err instanceof WebApiError) || err.status !== 403) return err;
  return webProviderError(
    `${err.message}. The instance must allow JSON: add json to search.formats in its settings.yml`,
  );
}

export class SearxngProvider extends ApiWebProvider {
  readonly name = 'searxng';
  readonly displayName = 'SearXNG (self-hosted)';
  protected readonly apiSpec: WebApiSpec = { service: 'SearXNG', baseUrlVars: ['SEARXNG_URL'] };

  override search(query: string, limit: number, { signal }: WebSearchOptions) {
    return searchAnswer(async () => {
      let answer: unknown;
      try {
        answer = await this.api.request('search', { query: { q: query, format: 'json', pageno: 1 }, signal });
      } catch (err) {
        throw withJsonHint(err);
      }
      const hits = hitsOf(asObject(answer).results, (r) => asString(r.content));
      return hits.filter((hit) => hit.url !== '').slice(0, limit);
    });
  }
}
