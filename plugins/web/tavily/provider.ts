/**
 * Tavily: POST /search, /extract and /crawl on https://api.tavily.com (or TAVILY_BASE_URL), with
 * `Authorization: Bearer <TAVILY_API_KEY>`. Extract answers `{results: [{url, raw_content}],
 * failed_results: [{url, error}]}`; crawl answers `{base_url, results: [{url, raw_content}]}`.
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
  type WebCrawlOptions,
  type WebExtractOptions,
  type WebExtractResponse,
  type WebPage,
  type WebSearchOptions,
  type WebSearchProvider,
  type WebSearchResponse,
} from '@hermes/plugin-sdk';

const DEFAULT_BASE_URL = 'https://api.tavily.com';
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

export class TavilyProvider implements WebSearchProvider {
  readonly name = 'tavily';
  readonly displayName = 'Tavily';
  readonly #env: Readonly<Record<string, string | undefined>>;

  constructor(env: Readonly<Record<string, string | undefined>> = process.env) {
    this.#env = env;
  }

  isAvailable(): boolean {
    return envValue(this.#env, 'TAVILY_API_KEY') !== undefined;
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

  async #post(path: string, body: Record<string, unknown>, signal: AbortSignal): Promise<Record<string, unknown>> {
    const key = envValue(this.#env, 'TAVILY_API_KEY');
    if (!key) throw new HermesError(ERROR_CODES.WEB_PROVIDER, 'TAVILY_API_KEY is not set');
    const base = envValue(this.#env, 'TAVILY_BASE_URL') ?? DEFAULT_BASE_URL;
    const answer = await requestJson('Tavily', apiUrl(base, path), {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body,
      signal,
    });
    return asObject(answer);
  }

  async search(query: string, limit: number, { signal }: WebSearchOptions): Promise<WebSearchResponse> {
    try {
      const answer = await this.#post(
        'search',
        { query, max_results: Math.max(1, Math.min(limit, MAX_RESULTS)), search_depth: 'basic', topic: 'general' },
        signal,
      );
      const results = asArray(answer.results).map(asObject);
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
      return { success: false, error: errorText(err) };
    }
  }

  async extract(urls: string[], { format, signal }: WebExtractOptions): Promise<WebExtractResponse> {
    try {
      const answer = await this.#post('extract', { urls, format, extract_depth: 'basic' }, signal);
      const pages = asArray(answer.results).map((r) => pageOf(asObject(r)));
      const failed = asArray(answer.failed_results).map((f) => {
        const item = asObject(f);
        const page: WebPage = { url: asString(item.url), title: '', content: '', raw_content: '' };
        page.error = asString(item.error) || 'Tavily could not extract this URL';
        return page;
      });
      return { success: true, data: [...pages, ...failed] };
    } catch (err) {
      return { success: false, error: errorText(err) };
    }
  }

  async crawl(
    url: string,
    { format, signal, limit, depth, instructions }: WebCrawlOptions,
  ): Promise<WebExtractResponse> {
    try {
      const answer = await this.#post(
        'crawl',
        {
          url,
          max_depth: Math.max(1, Math.min(depth, MAX_DEPTH)),
          limit,
          format,
          extract_depth: 'basic',
          ...(instructions ? { instructions } : {}),
        },
        signal,
      );
      const pages = asArray(answer.results).map((r) => pageOf(asObject(r)));
      return { success: true, data: pages.slice(0, limit) };
    } catch (err) {
      return { success: false, error: errorText(err) };
    }
  }
}
