/**
 * DuckDuckGo with no key, the way the Python ddgs library does it: one form POST of `q` (with
 * `b` empty and `l`, the region) to https://html.duckduckgo.com/html/ (or DDGS_BASE_URL), and the
 * results read from the HTML it answers (html-results.ts). This is scraping: DuckDuckGo limits
 * automated searches and answers its bot-check page (HTTP 202, or 403) to an address it limits;
 * that is a clear error, never retried. One request per search, the first page only (about ten
 * results), no retries, no pagination. The plugin is opt-in (kind: standalone), and once enabled
 * the provider is a `fallback`: auto-detection picks it only when no keyed search provider is set.
 */
import {
  apiUrl,
  causeCode,
  envValue,
  type ProviderEnv,
  readLimited,
  searchAnswer,
  WebApiError,
  WebProviderBase,
  type WebSearchOptions,
} from '@hermes/plugin-sdk';
import { isBotCheck, isResultsPage, parseResults } from './html-results.js';

const SERVICE = 'DuckDuckGo';
export const DEFAULT_BASE_URL = 'https://html.duckduckgo.com';
/** ddgs's default region (`l`): DDGS_REGION overrides it (`de-de`, `wt-wt` for no region, ...). */
export const DEFAULT_REGION = 'us-en';
/** A results page is about 30 kB; anything past this is not one. */
const MAX_PAGE_BYTES = 2 * 1024 * 1024;
/** A browser's User-Agent, as ddgs sends one: the HTML endpoint refuses clients it takes for bots. */
const USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
/** The statuses DuckDuckGo limits an address with. */
const LIMITED = new Set([202, 403, 429]);

function rateLimited(status: number): WebApiError {
  return new WebApiError(
    SERVICE,
    `${SERVICE} is rate-limiting this address (HTTP ${status}, its bot-check page instead of results): ` +
      'ddgs reads the results page DuckDuckGo serves to browsers, and DuckDuckGo limits automated searches. ' +
      'Wait a few minutes, or set web.search_backend to a keyed search provider',
    status === 200 ? 429 : status,
  );
}

/** Search-only, key-free provider reading DuckDuckGo's HTML results page. */
export class DdgsProvider extends WebProviderBase {
  readonly name = 'ddgs';
  readonly displayName = 'DuckDuckGo (ddgs)';
  readonly fallback = true;
  readonly #env: ProviderEnv;

  constructor(env: ProviderEnv = process.env) {
    super();
    this.#env = env;
  }

  /** No key, no URL needed: the plugin being enabled is the choice. */
  isAvailable(): boolean {
    return true;
  }

  override search(query: string, limit: number, { signal }: WebSearchOptions) {
    return searchAnswer(async () => {
      const page = await this.#resultsPage(query, signal);
      return parseResults(page).slice(0, limit);
    });
  }

  async #resultsPage(query: string, signal: AbortSignal): Promise<string> {
    const target = apiUrl(envValue(this.#env, 'DDGS_BASE_URL') ?? DEFAULT_BASE_URL, 'html/');
    const form = new URLSearchParams({ q: query, b: '', l: envValue(this.#env, 'DDGS_REGION') ?? DEFAULT_REGION });
    let res: Response;
    try {
      res = await fetch(target, {
        method: 'POST',
        headers: {
          accept: 'text/html,application/xhtml+xml',
          'content-type': 'application/x-www-form-urlencoded',
          referer: `${target.origin}/`,
          'user-agent': USER_AGENT,
        },
        body: form.toString(),
        redirect: 'manual',
        signal,
      });
    } catch (err) {
      if (signal.aborted)
        throw new WebApiError(SERVICE, `${SERVICE} did not answer in time (or the call was interrupted)`, null);
      throw new WebApiError(SERVICE, `cannot reach ${SERVICE} at ${target.origin}: ${causeCode(err)}`, null);
    }
    const page = await readLimited(res, MAX_PAGE_BYTES, SERVICE);
    if (LIMITED.has(res.status) || (res.ok && isBotCheck(page))) throw rateLimited(res.status);
    if (res.status !== 200) throw new WebApiError(SERVICE, `${SERVICE} answered HTTP ${res.status}`, res.status);
    if (!isResultsPage(page)) {
      throw new WebApiError(
        SERVICE,
        `${SERVICE} answered a page with neither results nor its "No results." notice: its page layout may have changed`,
        res.status,
      );
    }
    return page;
  }
}
