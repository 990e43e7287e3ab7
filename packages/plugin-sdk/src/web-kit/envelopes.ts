/** The tools' envelopes built from what a provider found, and from what it threw. */
import {
  ERROR_CODES,
  HermesError,
  type WebExtractResponse,
  type WebFailure,
  type WebPage,
  type WebSearchHit,
  type WebSearchResponse,
} from '@hermes/protocol';
import { asObjects, asString, errorText } from './web-api.js';

/** A search hit before numbering: `position` only when the service gives its own. */
export type SearchHitFields = Omit<WebSearchHit, 'position'> & { position?: number | undefined };

/** A provider's own failure (`HERMES_WEB_PROVIDER`): thrown inside `searchAnswer` / `pagesAnswer`, its message is the envelope's `error`. */
export function webProviderError(message: string): HermesError {
  return new HermesError(ERROR_CODES.WEB_PROVIDER, message);
}

/** `{success: false, error}` with the message of anything thrown. */
export function webFailure(err: unknown): WebFailure {
  return { success: false, error: errorText(err) };
}

/**
 * The hits of an API answer's result list (`results` of Exa, Tavily, Brave): each item's `title` and
 * `url`, and the description `describe` reads from it; `text` reads the title (default `asString`).
 */
export function hitsOf(
  results: unknown,
  describe: (item: Record<string, unknown>) => string,
  text: (value: unknown) => string = asString,
): SearchHitFields[] {
  return asObjects(results).map((item) => ({
    title: text(item.title),
    url: asString(item.url),
    description: describe(item),
  }));
}

/** Runs `find` and answers the search envelope: its hits numbered from 1 (unless a hit brings its own), or the failure of what it threw. */
export async function searchAnswer(find: () => Promise<readonly SearchHitFields[]>): Promise<WebSearchResponse> {
  try {
    const hits = await find();
    const web = hits.map(({ title, url, description, position }, i) => ({
      title,
      url,
      description,
      position: position ?? i + 1,
    }));
    return { success: true, data: { web } };
  } catch (err) {
    return webFailure(err);
  }
}

/** Runs `read` and answers the extract (or crawl) envelope: its pages, or the failure of what it threw. */
export async function pagesAnswer(read: () => Promise<WebPage[]>): Promise<WebExtractResponse> {
  try {
    return { success: true, data: await read() };
  } catch (err) {
    return webFailure(err);
  }
}

/** The page of a URL that failed: no content, `error` saying why. */
export function failedPage(url: string, error: string): WebPage {
  return { url, title: '', content: '', raw_content: '', error };
}
