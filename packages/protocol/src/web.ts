/**
 * The web provider contract (the seed's WebSearchProvider in TypeScript): what a plugin registers
 * with `ctx.registerWebSearchProvider`, and the fixed response envelopes the `web_search` and
 * `web_extract` tools read. The agent validates every envelope at the boundary, so a provider
 * written in plain JavaScript that returns the wrong shape gets a clear error, not a crash.
 */

/** A value or a promise of it: every provider method may be sync or async. */
export type MaybePromise<T> = T | Promise<T>;

/** One search hit; `position` counts from 1. */
export interface WebSearchHit {
  title: string;
  url: string;
  description: string;
  position: number;
}

/** One page of an extract or crawl; `error` is set only when this URL failed. */
export interface WebPage {
  url: string;
  title: string;
  /** clean text or Markdown, what the model reads */
  content: string;
  /** the provider's unprocessed content (HTML, full text); never sent to the model unless `content` is empty */
  raw_content: string;
  metadata?: Record<string, unknown>;
  error?: string;
}

/** Either capability, on failure. */
export interface WebFailure {
  success: false;
  error: string;
}

export interface WebSearchSuccess {
  success: true;
  data: { web: WebSearchHit[] };
}

export interface WebExtractSuccess {
  success: true;
  data: WebPage[];
}

export type WebSearchResponse = WebSearchSuccess | WebFailure;
export type WebExtractResponse = WebExtractSuccess | WebFailure;

/** What `content` should be: Markdown (default) or plain text. */
export type WebContentFormat = 'markdown' | 'text';

/** A page fetched by the host's guarded fetch. */
export interface FetchedWebPage {
  /** the URL that answered, after redirects */
  url: string;
  status: number;
  /** the media type without parameters, lower case (`text/html`) */
  contentType: string;
  /** the body decoded to text (charset from the header, a BOM or `<meta charset>`; UTF-8 otherwise) */
  text: string;
  /** true when the body was cut at the size limit */
  truncated: boolean;
  /** every URL that redirected, in order */
  redirects: string[];
}

export interface FetchWebPageOptions {
  signal?: AbortSignal;
  /** the Accept header; default prefers HTML */
  accept?: string;
}

/**
 * The host's fetch for URLs that came from the model: http(s) only; private, loopback and
 * link-local addresses refused after DNS resolution and after every redirect (unless
 * `security.allow_private_urls`); bounded in time (`web.timeout_s`) and size (`web.max_page_bytes`).
 * Rejects with a HermesError (`HERMES_WEB_URL_REFUSED`, `HERMES_WEB_FETCH`); HTTP error statuses
 * are returned, not thrown.
 */
export type FetchWebPage = (url: string, options?: FetchWebPageOptions) => Promise<FetchedWebPage>;

export interface WebSearchOptions {
  /** aborted when the call times out (`web.timeout_s`) or the turn is interrupted */
  signal: AbortSignal;
}

export interface WebExtractOptions {
  format: WebContentFormat;
  signal: AbortSignal;
  /** use it for every URL the model gave you: it enforces the SSRF policy and the limits */
  fetchPage: FetchWebPage;
}

export interface WebCrawlOptions extends WebExtractOptions {
  /** most pages to return, the start page included */
  limit: number;
  /** most link hops from the start page */
  depth: number;
  /** natural-language focus for providers that support it ("only the API reference") */
  instructions?: string;
}

/**
 * A web search/extract/crawl backend. Required: `name`, `isAvailable()` and the methods of the
 * capabilities it declares. Defaults as in the seed: `supportsSearch()` true, `supportsExtract()`
 * and `supportsCrawl()` false.
 */
export interface WebSearchProvider {
  /** stable id used in web.search_backend / web.extract_backend / web.backend: lowercase, digits, `-`, `_` */
  readonly name: string;
  /** human label; defaults to `name` */
  readonly displayName?: string;
  /**
   * A provider that works with no configuration at all (no key, no URL): auto-detection picks it
   * only when no other available provider has the capability.
   */
  readonly fallback?: boolean;
  /** cheap availability gate (env vars present, ...); MUST NOT touch the network */
  isAvailable(): boolean;
  supportsSearch?(): boolean;
  supportsExtract?(): boolean;
  supportsCrawl?(): boolean;
  search?(query: string, limit: number, options: WebSearchOptions): MaybePromise<WebSearchResponse>;
  extract?(urls: string[], options: WebExtractOptions): MaybePromise<WebExtractResponse>;
  crawl?(url: string, options: WebCrawlOptions): MaybePromise<WebExtractResponse>;
}

export type WebCapability = 'search' | 'extract' | 'crawl';

export const WEB_CAPABILITIES: readonly WebCapability[] = ['search', 'extract', 'crawl'];
