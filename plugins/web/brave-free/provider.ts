/** Brave Search: the Web Search API, GET /res/v1/web/search with an X-Subscription-Token header. */
import {
  apiUrl,
  asArray,
  asObject,
  asString,
  envValue,
  errorText,
  requestJson,
  type WebSearchOptions,
  type WebSearchProvider,
  type WebSearchResponse,
} from '@hermes/plugin-sdk';

const DEFAULT_BASE_URL = 'https://api.search.brave.com';
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

/** Search-only provider for the Brave Search Web Search API (GET /res/v1/web/search). */
export class BraveSearchProvider implements WebSearchProvider {
  // Stable id for web.search_backend / web.backend: lowercase, hyphens permitted.
  readonly name = 'brave-free';
  readonly displayName = 'Brave Search (free tier)';
  readonly #env: Readonly<Record<string, string | undefined>>;

  constructor(env: Readonly<Record<string, string | undefined>> = process.env) {
    this.#env = env;
  }

  // Cheap check, no network: runs whenever a web tool picks a provider.
  isAvailable(): boolean {
    return envValue(this.#env, 'BRAVE_SEARCH_API_KEY') !== undefined;
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
    const key = envValue(this.#env, 'BRAVE_SEARCH_API_KEY');
    if (!key) return { success: false, error: 'BRAVE_SEARCH_API_KEY is not set' };
    const base = envValue(this.#env, 'BRAVE_SEARCH_BASE_URL') ?? DEFAULT_BASE_URL;
    try {
      const answer = await requestJson('Brave Search', apiUrl(base, 'res/v1/web/search'), {
        query: { q: query, count: Math.max(1, Math.min(limit, MAX_COUNT)) },
        headers: { 'X-Subscription-Token': key },
        signal,
      });
      const results = asArray(asObject(asObject(answer).web).results).map(asObject);
      // The response shape is fixed: the tool validates it.
      return {
        success: true,
        data: {
          web: results.map((r, i) => ({
            title: plain(r.title),
            url: asString(r.url),
            description: plain(r.description),
            position: i + 1,
          })),
        },
      };
    } catch (err) {
      return { success: false, error: errorText(err) };
    }
  }
}
