/**
 * Base classes for a web provider written as a class: the capability flags follow from the methods
 * the class has, and a provider in front of one JSON API is available when its variables are set.
 */
import type {
  MaybePromise,
  WebCrawlOptions,
  WebExtractOptions,
  WebExtractResponse,
  WebSearchOptions,
  WebSearchProvider,
  WebSearchResponse,
} from '@hermes/protocol';
import { type ProviderEnv, WebApiClient, type WebApiSpec } from './web-api-client.js';

/**
 * A provider whose `supportsSearch()`, `supportsExtract()` and `supportsCrawl()` answer whether it
 * has `search()`, `extract()` and `crawl()`: a subclass writes `name`, `isAvailable()` and the
 * methods of what it does, and a flag can never disagree with its method.
 */
export abstract class WebProviderBase implements WebSearchProvider {
  abstract readonly name: string;
  abstract isAvailable(): boolean;
  search?(query: string, limit: number, options: WebSearchOptions): MaybePromise<WebSearchResponse>;
  extract?(urls: string[], options: WebExtractOptions): MaybePromise<WebExtractResponse>;
  crawl?(url: string, options: WebCrawlOptions): MaybePromise<WebExtractResponse>;

  supportsSearch(): boolean {
    return typeof this.search === 'function';
  }

  supportsExtract(): boolean {
    return typeof this.extract === 'function';
  }

  supportsCrawl(): boolean {
    return typeof this.crawl === 'function';
  }
}

/**
 * A provider in front of one JSON API: a subclass names the API in `apiSpec` and calls it through
 * `this.api`; it is available when the API's variables are set in `env` (default `process.env`).
 */
export abstract class ApiWebProvider extends WebProviderBase {
  protected abstract readonly apiSpec: WebApiSpec;
  readonly #env: ProviderEnv;
  #api: WebApiClient | undefined;

  constructor(env: ProviderEnv = process.env) {
    super();
    this.#env = env;
  }

  /** The API's client, built on first use (a subclass's `apiSpec` is set only after this constructor). */
  protected get api(): WebApiClient {
    this.#api ??= new WebApiClient(this.apiSpec, this.#env);
    return this.#api;
  }

  isAvailable(): boolean {
    return this.api.isConfigured();
  }
}
