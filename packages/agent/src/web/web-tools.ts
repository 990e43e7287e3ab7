/**
 * The `web_search` and `web_extract` tools. At call time each reads its config key, asks the
 * router for a provider, checks the URLs it was given against the SSRF policy (web_extract),
 * calls the provider with a deadline, validates the envelope it returns and hands the model JSON.
 * Every failure is a JSON result with `success: false`, `error` and a stable `code`.
 */
import type { PluginRecord, WebSearchProviderRegistration } from '@hermes/plugins';
import {
  ERROR_CODES,
  type ErrorCode,
  type FetchWebPage,
  HermesError,
  type Logger,
  silentLogger,
  type ToolDefinition,
  type WebCapability,
  type WebContentFormat,
  type WebPage,
} from '@hermes/protocol';
import { optionalNumber, optionalString, parseArgs, requiredString, ToolArgumentError } from '../tools/tool-args.js';
import { callWithDeadline, DeadlineError } from './call-with-deadline.js';
import { checkExtractEnvelope, checkSearchEnvelope } from './envelopes.js';
import { routeWebCall, type WebProviderSource, type WebRoutingConfig } from './provider-routing.js';
import { createSafeFetch } from './safe-fetch.js';
import { bareHost, parseWebUrl, type Resolver, systemResolver, type UrlPolicy, vetHost } from './url-guard.js';
import {
  CRAWL_DEPTH_DEFAULT,
  CRAWL_DEPTH_MAX,
  CRAWL_LIMIT_DEFAULT,
  CRAWL_LIMIT_MAX,
  EXTRACT_MAX_URLS,
  SEARCH_LIMIT_DEFAULT,
  SEARCH_LIMIT_MAX,
  WEB_EXTRACT_SCHEMA,
  WEB_SEARCH_SCHEMA,
} from './web-tool-schemas.js';

/** The `web:` section of config.yaml as the tools read it. */
export interface WebToolsConfig extends WebRoutingConfig {
  timeout_s: number;
  crawl_timeout_s: number;
  max_page_bytes: number;
  max_content_chars: number;
}

export interface WebToolsOptions {
  /** the registry plugins fill; read at call time, so providers loaded later are seen */
  providers: ReadonlyMap<string, WebSearchProviderRegistration>;
  /** plugin records, read at call time to explain missing providers */
  plugins?: () => readonly PluginRecord[];
  config: WebToolsConfig;
  /** `security.allow_private_urls` */
  allowPrivateUrls: boolean;
  logger?: Logger;
  /** test seams: a fake resolver and dialler for the guarded fetch (see createSafeFetch) */
  resolve?: Resolver;
  dial?: (address: string) => string;
}

/** An extract call may take this many times web.timeout_s: its pages are fetched a few at a time, each within it. */
const EXTRACT_DEADLINE_FACTOR = 2;
/** A call's content across all its pages, in multiples of web.max_content_chars. */
const CALL_CONTENT_SHARES = EXTRACT_MAX_URLS;
/** A search hit's description is cut here. */
const DESCRIPTION_MAX_CHARS = 1_000;

type Failure = { success: false; error: string; code: ErrorCode; provider?: string };

const fail = (error: string, code: ErrorCode, provider?: string): Failure => ({
  success: false,
  error,
  code,
  ...(provider ? { provider } : {}),
});

function stringList(args: Record<string, unknown>, name: string): string[] {
  const value = args[name];
  if (typeof value === 'string' && value.trim() !== '') return [value.trim()];
  if (!Array.isArray(value) || value.length === 0) {
    throw new ToolArgumentError(`Missing required argument "${name}": expected a non-empty array of URL strings`);
  }
  return value.map((v, i) => {
    if (typeof v !== 'string' || v.trim() === '') {
      throw new ToolArgumentError(`Invalid argument "${name}[${i}]": expected a URL string`);
    }
    return v.trim();
  });
}

function oneOf<T extends string>(args: Record<string, unknown>, name: string, allowed: readonly T[], fallback: T): T {
  const value = optionalString(args, name);
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new ToolArgumentError(`Invalid argument "${name}": expected one of ${allowed.join(', ')}, got "${value}"`);
  }
  return value as T;
}

const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));

function providerError(err: unknown, provider: string, what: string, timeoutKey: string): Failure {
  if (err instanceof DeadlineError) {
    return err.reason === 'timeout'
      ? fail(
          `web provider "${provider}" did not finish ${what} in time (${err.message}; ${timeoutKey})`,
          ERROR_CODES.WEB_PROVIDER,
          provider,
        )
      : fail(`web ${what} was interrupted`, ERROR_CODES.INTERRUPTED, provider);
  }
  const message = err instanceof Error ? err.message : String(err);
  return fail(`web provider "${provider}" failed: ${message}`, ERROR_CODES.WEB_PROVIDER, provider);
}

/** Cuts a page's content to `max` characters with a note the model can read. */
function capContent(content: string, max: number): { text: string; cut: number } {
  if (content.length <= max) return { text: content, cut: 0 };
  const cut = content.length - max;
  return { text: `${content.slice(0, max)}\n\n[... ${cut} more characters not shown ...]`, cut };
}

/** What the model sees of a page: content (raw_content when content is empty), capped; raw_content dropped. */
function forModel(page: WebPage, maxChars: number): Record<string, unknown> {
  const { text, cut } = capContent(page.content || page.raw_content, maxChars);
  const metadata = cut > 0 ? { ...page.metadata, content_cut_chars: cut } : page.metadata;
  return {
    url: page.url,
    title: page.title,
    content: text,
    ...(metadata && Object.keys(metadata).length > 0 ? { metadata } : {}),
    ...(page.error !== undefined ? { error: page.error } : {}),
  };
}

function refusedPage(url: string, error: string): WebPage {
  return { url, title: '', content: '', raw_content: '', error };
}

/** Builds web_search and web_extract over a provider registry. */
export function createWebTools(options: WebToolsOptions): ToolDefinition[] {
  const logger = options.logger ?? silentLogger;
  const config = options.config;
  const records = options.plugins;
  const source: WebProviderSource = {
    providers: options.providers,
    plugins: () => {
      try {
        return records?.() ?? [];
      } catch (err) {
        // a tool called while plugins are still loading (ctx.dispatchTool inside register): no records yet
        logger.debug({ err }, 'web tools: plugin records not available yet');
        return [];
      }
    },
  };
  const policy: UrlPolicy = { allowPrivate: options.allowPrivateUrls, resolve: options.resolve ?? systemResolver };
  const fetchPage: FetchWebPage = createSafeFetch({
    allowPrivate: options.allowPrivateUrls,
    timeoutMs: config.timeout_s * 1000,
    maxBytes: config.max_page_bytes,
    ...(options.resolve ? { resolve: options.resolve } : {}),
    ...(options.dial ? { dial: options.dial } : {}),
  });

  /**
   * Checks one model-given URL: null when it may go to the provider, else the reason. A name that
   * does not resolve here is passed on: a remote provider resolves it on its own network (and
   * reports it if it fails there too); the key-free fetcher cannot reach it anyway.
   */
  const refusal = async (raw: string): Promise<string | null> => {
    try {
      await vetHost(bareHost(parseWebUrl(raw)), policy);
      return null;
    } catch (err) {
      if (err instanceof HermesError) return err.code === ERROR_CODES.WEB_FETCH ? null : err.message;
      throw err;
    }
  };

  const route = async (capability: WebCapability) => {
    const r = await routeWebCall(capability, config, source);
    if (r.ok) logger.debug({ provider: r.name, via: r.via, capability }, `web ${capability}: ${r.name} (${r.via})`);
    return r;
  };

  const webSearch: ToolDefinition = {
    name: 'web_search',
    toolset: 'web',
    schema: WEB_SEARCH_SCHEMA,
    emoji: '🔎',
    description: 'search the web through the configured provider',
    owner: 'builtin',
    handler: async (args, context) => {
      const parsed = parseArgs(() => ({
        query: requiredString(args, 'query'),
        limit: clamp(
          optionalNumber(args, 'limit', { integer: true, min: 1 }) ?? SEARCH_LIMIT_DEFAULT,
          1,
          SEARCH_LIMIT_MAX,
        ),
      }));
      if (!parsed.ok) return fail(parsed.error, parsed.code);
      const { query, limit } = parsed.value;
      const r = await route('search');
      if (!r.ok) return fail(`web_search: ${r.error}`, ERROR_CODES.WEB_NO_PROVIDER);
      const search = r.provider.search;
      if (typeof search !== 'function')
        return fail(`web provider "${r.name}" has no search()`, ERROR_CODES.WEB_PROVIDER, r.name);
      let value: unknown;
      try {
        value = await callWithDeadline(
          (signal) => search.call(r.provider, query, limit, { signal }),
          config.timeout_s * 1000,
          context?.signal,
        );
      } catch (err) {
        return providerError(err, r.name, 'the search', 'web.timeout_s');
      }
      const checked = checkSearchEnvelope(value, r.name);
      if (!checked.ok) return fail(checked.error, ERROR_CODES.WEB_PROVIDER, r.name);
      const envelope = checked.value;
      if (!envelope.success) return fail(envelope.error, ERROR_CODES.WEB_PROVIDER, r.name);
      const web = envelope.data.web.slice(0, limit).map((hit) => ({
        ...hit,
        description: hit.description.slice(0, DESCRIPTION_MAX_CHARS),
      }));
      return { success: true, provider: r.name, query, data: { web } };
    },
  };

  const webExtract: ToolDefinition = {
    name: 'web_extract',
    toolset: 'web',
    schema: WEB_EXTRACT_SCHEMA,
    emoji: '📄',
    description: 'read web pages (or crawl a site) through the configured provider',
    owner: 'builtin',
    handler: async (args, context) => {
      const parsed = parseArgs(() => {
        const urls = stringList(args, 'urls');
        const mode = oneOf(args, 'mode', ['page', 'crawl'] as const, 'page');
        const format = oneOf<WebContentFormat>(args, 'format', ['markdown', 'text'], 'markdown');
        if (mode === 'crawl' && urls.length !== 1) {
          throw new ToolArgumentError(
            `Invalid argument "urls": mode "crawl" takes exactly one start URL, got ${urls.length}`,
          );
        }
        if (urls.length > EXTRACT_MAX_URLS) {
          throw new ToolArgumentError(
            `Invalid argument "urls": at most ${EXTRACT_MAX_URLS} URLs per call, got ${urls.length}`,
          );
        }
        const limit = clamp(
          optionalNumber(args, 'limit', { integer: true, min: 1 }) ?? CRAWL_LIMIT_DEFAULT,
          1,
          CRAWL_LIMIT_MAX,
        );
        const depth = clamp(
          optionalNumber(args, 'depth', { integer: true, min: 1 }) ?? CRAWL_DEPTH_DEFAULT,
          1,
          CRAWL_DEPTH_MAX,
        );
        const instructions = optionalString(args, 'instructions');
        return { urls, mode, format, limit, depth, instructions };
      });
      if (!parsed.ok) return fail(parsed.error, parsed.code);
      const { urls, mode, format, limit, depth, instructions } = parsed.value;
      const capability: WebCapability = mode === 'crawl' ? 'crawl' : 'extract';

      const reasons = await Promise.all(urls.map(refusal));
      const allowed = urls.filter((_, i) => reasons[i] === null);
      const refused = urls.flatMap((u, i) => (reasons[i] ? [refusedPage(u, reasons[i])] : []));
      if (allowed.length === 0) {
        const [first] = refused;
        if (mode === 'crawl' || refused.length === 1)
          return fail(first?.error ?? 'refused', ERROR_CODES.WEB_URL_REFUSED);
        return { success: true, data: refused.map((p) => forModel(p, config.max_content_chars)) };
      }

      const r = await route(capability);
      if (!r.ok) return fail(`web_extract: ${r.error}`, ERROR_CODES.WEB_NO_PROVIDER);
      const base = { format, fetchPage };
      let value: unknown;
      try {
        if (mode === 'crawl') {
          const crawl = r.provider.crawl;
          if (typeof crawl !== 'function')
            return fail(`web provider "${r.name}" has no crawl()`, ERROR_CODES.WEB_PROVIDER, r.name);
          const start = allowed[0] ?? '';
          value = await callWithDeadline(
            (signal) =>
              crawl.call(r.provider, start, {
                ...base,
                signal,
                limit,
                depth,
                ...(instructions ? { instructions } : {}),
              }),
            config.crawl_timeout_s * 1000,
            context?.signal,
          );
        } else {
          const extract = r.provider.extract;
          if (typeof extract !== 'function')
            return fail(`web provider "${r.name}" has no extract()`, ERROR_CODES.WEB_PROVIDER, r.name);
          value = await callWithDeadline(
            (signal) => extract.call(r.provider, allowed, { ...base, signal }),
            config.timeout_s * 1000 * EXTRACT_DEADLINE_FACTOR,
            context?.signal,
          );
        }
      } catch (err) {
        return mode === 'crawl'
          ? providerError(err, r.name, 'the crawl', 'web.crawl_timeout_s')
          : providerError(err, r.name, 'the extract', 'web.timeout_s');
      }
      const checked = checkExtractEnvelope(value, r.name, mode === 'crawl' ? 'crawl()' : 'extract()');
      if (!checked.ok) return fail(checked.error, ERROR_CODES.WEB_PROVIDER, r.name);
      const envelope = checked.value;
      if (!envelope.success) return fail(envelope.error, ERROR_CODES.WEB_PROVIDER, r.name);
      const pages = [...(mode === 'crawl' ? envelope.data.slice(0, limit) : envelope.data), ...refused];
      const total = config.max_content_chars * CALL_CONTENT_SHARES;
      const perPage = Math.min(config.max_content_chars, Math.max(500, Math.floor(total / Math.max(1, pages.length))));
      return {
        success: true,
        provider: r.name,
        ...(mode === 'crawl' ? { mode } : {}),
        data: pages.map((p) => forModel(p, perPage)),
      };
    },
  };

  return [webSearch, webExtract];
}
