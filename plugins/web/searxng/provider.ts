/**
 * SearXNG: the search API of a self-hosted (or public) instance, GET /search?q=...&format=json.
 * No key. The instance must allow the JSON format (`search.formats: [html, json]` in settings.yml),
 * otherwise it answers 403. SearXNG has no result-count parameter: results are cut to the limit.
 * Search only: pair it with an extract provider (the key-free `fetch` serves web_extract).
 */
import {
  apiUrl,
  asArray,
  asObject,
  asString,
  envValue,
  errorText,
  requestJson,
  WebApiError,
  type WebSearchOptions,
  type WebSearchProvider,
  type WebSearchResponse,
} from '@hermes/plugin-sdk';

export class SearxngProvider implements WebSearchProvider {
  readonly name = 'searxng';
  readonly displayName = 'SearXNG (self-hosted)';
  readonly #env: Readonly<Record<string, string | undefined>>;

  constructor(env: Readonly<Record<string, string | undefined>> = process.env) {
    this.#env = env;
  }

  isAvailable(): boolean {
    return envValue(this.#env, 'SEARXNG_URL') !== undefined;
  }

  supportsSearch(): boolean {
    return true;
  }

  supportsExtract(): boolean {
    return false;
  }

  supportsCrawl(): boolean {
    return false;
  }

  async search(query: string, limit: number, { signal }: WebSearchOptions): Promise<WebSearchResponse> {
    const base = envValue(this.#env, 'SEARXNG_URL');
    if (!base) return { success: false, error: 'SEARXNG_URL is not set' };
    try {
      const answer = await requestJson('SearXNG', apiUrl(base, 'search'), {
        query: { q: query, format: 'json', pageno: 1 },
        signal,
      });
      const results = asArray(asObject(answer).results)
        .map(asObject)
        .filter((r) => asString(r.url) !== '')
        .slice(0, limit);
      return {
        success: true,
        data: {
          web: results.map((r, i) => ({
            title: asString(r.title),
            url: asString(r.url),
            description: asString(r.content),
            position: i + 1,
          })),
        },
      };
    } catch (err) {
      if (err instanceof WebApiError && err.status === 403) {
        return {
          success: false,
          error: `${err.message}. The instance must allow JSON: add json to search.formats in its settings.yml`,
        };
      }
      return { success: false, error: errorText(err) };
    }
  }
}
