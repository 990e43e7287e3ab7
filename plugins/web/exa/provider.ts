/**
 * Exa on https://api.exa.ai (or EXA_BASE_URL), `x-api-key: <EXA_API_KEY>`:
 *   search  POST /search {query, numResults, type: "auto", contents: {text: {maxCharacters}}}
 *   extract POST /contents {urls, text: true} -> {results: [{url, title, text}], statuses: [{id, status, error}]}
 *   crawl   POST /contents {urls: [start], text: true, subpages, subpageTarget} -> results[0].subpages
 * Exa returns clean text, so both formats get the same content. A crawl is one level of subpages
 * (Exa picks them); `depth` beyond 1 is not supported and `instructions` become the subpage target.
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

const DEFAULT_BASE_URL = 'https://api.exa.ai';
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

export class ExaProvider implements WebSearchProvider {
  readonly name = 'exa';
  readonly displayName = 'Exa';
  readonly #env: Readonly<Record<string, string | undefined>>;

  constructor(env: Readonly<Record<string, string | undefined>> = process.env) {
    this.#env = env;
  }

  isAvailable(): boolean {
    return envValue(this.#env, 'EXA_API_KEY') !== undefined;
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
    const key = envValue(this.#env, 'EXA_API_KEY');
    if (!key) throw new HermesError(ERROR_CODES.WEB_PROVIDER, 'EXA_API_KEY is not set');
    const base = envValue(this.#env, 'EXA_BASE_URL') ?? DEFAULT_BASE_URL;
    return asObject(
      await requestJson('Exa', apiUrl(base, path), { method: 'POST', headers: { 'x-api-key': key }, body, signal }),
    );
  }

  async search(query: string, limit: number, { signal }: WebSearchOptions): Promise<WebSearchResponse> {
    try {
      const answer = await this.#post(
        'search',
        {
          query,
          numResults: Math.max(1, Math.min(limit, MAX_RESULTS)),
          type: 'auto',
          contents: { text: { maxCharacters: SNIPPET_CHARS } },
        },
        signal,
      );
      const results = asArray(answer.results).map(asObject);
      return {
        success: true,
        data: {
          web: results.map((r, i) => ({
            title: asString(r.title),
            url: asString(r.url),
            description: (asString(r.summary) || asArray(r.highlights).map(asString).join(' … ') || asString(r.text))
              .replace(/\s+/g, ' ')
              .trim(),
            position: i + 1,
          })),
        },
      };
    } catch (err) {
      return { success: false, error: errorText(err) };
    }
  }

  async extract(urls: string[], { signal }: WebExtractOptions): Promise<WebExtractResponse> {
    try {
      const answer = await this.#post('contents', { urls, text: true }, signal);
      const pages = asArray(answer.results).map((r) => pageOf(asObject(r)));
      const failed = asArray(answer.statuses)
        .map(asObject)
        .filter((s) => asString(s.status) === 'error')
        .map((s): WebPage => ({ url: asString(s.id), title: '', content: '', raw_content: '', error: statusError(s) }));
      return { success: true, data: [...pages, ...failed] };
    } catch (err) {
      return { success: false, error: errorText(err) };
    }
  }

  async crawl(url: string, { signal, limit, instructions }: WebCrawlOptions): Promise<WebExtractResponse> {
    try {
      const answer = await this.#post(
        'contents',
        {
          urls: [url],
          text: true,
          subpages: Math.max(0, limit - 1),
          ...(instructions ? { subpageTarget: [instructions] } : {}),
        },
        signal,
      );
      const [root] = asArray(answer.results).map(asObject);
      const failed = asArray(answer.statuses)
        .map(asObject)
        .find((s) => asString(s.status) === 'error');
      if (!root)
        return { success: false, error: failed ? statusError(failed) : 'Exa returned no page for the start URL' };
      const pages = [pageOf(root), ...asArray(root.subpages).map((s) => pageOf(asObject(s)))];
      return { success: true, data: pages.slice(0, limit) };
    } catch (err) {
      return { success: false, error: errorText(err) };
    }
  }
}
