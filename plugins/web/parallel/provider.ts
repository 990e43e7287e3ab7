/**
 * Parallel Web Systems' Search and Extract APIs on https://api.parallel.ai (or PARALLEL_BASE_URL),
 * `x-api-key: <PARALLEL_API_KEY>`:
 *   search  POST /v1/search {search_queries: [query], objective: query, advanced_settings: {max_results}, mode?}
 *           -> {search_id, results: [{url, title, publish_date, excerpts: [..]}], warnings?}
 *   extract POST /v1/extract {urls, advanced_settings: {full_content: true}}
 *           -> {extract_id, results: [{url, title, full_content, excerpts}], errors: [{url, error_type, http_status_code}]}
 * The query is both the keyword query (cut at the API's 200 characters) and the objective (cut at
 * 5000). `PARALLEL_SEARCH_MODE` (`basic` or `advanced`) picks the mode; unset, the API's default
 * (advanced) applies. A hit's description is its excerpts joined on one line. Extracted pages are
 * Parallel's Markdown, for either format. Parallel has no crawl API: no crawl.
 */

import type { WebApiSpec, WebExtractOptions, WebPage, WebSearchOptions } from '@hermes/plugin-sdk';
import {
  ApiWebProvider,
  asArray,
  asObjects,
  asString,
  countWithin,
  envValue,
  failedPage,
  headerAuth,
  hitsOf,
  type ProviderEnv,
  pagesAnswer,
  searchAnswer,
  webProviderError,
} from '@hermes/plugin-sdk';

/** The most results the Search API returns per request. */
const MAX_RESULTS = 20;
/** The API's bounds on one keyword query and on the objective. */
const MAX_QUERY_CHARS = 200;
const MAX_OBJECTIVE_CHARS = 5000;
/** A description longer than this is cut: the tool cuts at 1000 anyway. */
const MAX_DESCRIPTION_CHARS = 1000;
const MODES = ['basic', 'advanced'] as const;

/** The excerpts of a result on one line, cut to a description's length. */
function excerptsOf(item: Record<string, unknown>): string {
  const text = asArray(item.excerpts).map(asString).join(' … ').replace(/\s+/g, ' ').trim();
  return text.length > MAX_DESCRIPTION_CHARS ? `${text.slice(0, MAX_DESCRIPTION_CHARS - 1)}…` : text;
}

/** A page of an /v1/extract result: its full content, else its excerpts. */
function pageOf(item: Record<string, unknown>): WebPage {
  const content = asString(item.full_content) || asArray(item.excerpts).map(asString).join('\n\n');
  const published = asString(item.publish_date);
  return {
    url: asString(item.url),
    title: asString(item.title),
    content,
    raw_content: content,
    ...(published ? { metadata: { published } } : {}),
  };
}

/** The page of an /v1/extract error: what Parallel says went wrong with that URL. */
function errorPage(item: Record<string, unknown>): WebPage {
  const status = typeof item.http_status_code === 'number' ? ` (HTTP ${item.http_status_code})` : '';
  return failedPage(
    asString(item.url),
    `Parallel could not extract this URL: ${asString(item.error_type) || 'error'}${status}`,
  );
}

/** Parallel's API: the key in x-api-key; PARALLEL_BASE_URL for a proxy or a test fake. */
const PARALLEL_API: WebApiSpec = {
  service: 'Parallel',
  keyVar: 'PARALLEL_API_KEY',
  baseUrlVars: ['PARALLEL_BASE_URL'],
  defaultBaseUrl: 'https://api.parallel.ai',
  auth: headerAuth('x-api-key'),
};

/** Search and extract through Parallel's Search and Extract APIs. */
export class ParallelProvider extends ApiWebProvider {
  readonly name = 'parallel';
  readonly displayName = 'Parallel';
  protected readonly apiSpec = PARALLEL_API;
  readonly #env: ProviderEnv;

  constructor(env: ProviderEnv = process.env) {
    super(env);
    this.#env = env;
  }

  /** PARALLEL_SEARCH_MODE, checked at each call: unset is the API's default. */
  #mode(): { mode?: string } {
    const mode = envValue(this.#env, 'PARALLEL_SEARCH_MODE')?.toLowerCase();
    if (mode === undefined) return {};
    if (!(MODES as readonly string[]).includes(mode)) {
      throw webProviderError(`PARALLEL_SEARCH_MODE must be ${MODES.join(' or ')} (got "${mode}")`);
    }
    return { mode };
  }

  override search(query: string, limit: number, { signal }: WebSearchOptions) {
    return searchAnswer(async () => {
      const answer = await this.api.post(
        'v1/search',
        {
          search_queries: [query.slice(0, MAX_QUERY_CHARS)],
          objective: query.slice(0, MAX_OBJECTIVE_CHARS),
          advanced_settings: { max_results: countWithin(limit, MAX_RESULTS) },
          ...this.#mode(),
        },
        signal,
      );
      return hitsOf(answer.results, excerptsOf)
        .filter((hit) => hit.url !== '')
        .slice(0, limit);
    });
  }

  override extract(urls: string[], { signal }: WebExtractOptions) {
    return pagesAnswer(async () => {
      const answer = await this.api.post('v1/extract', { urls, advanced_settings: { full_content: true } }, signal);
      return [...asObjects(answer.results).map(pageOf), ...asObjects(answer.errors).map(errorPage)];
    });
  }
}
