/**
 * xAI web search: Grok's server-side `web_search` tool through the Responses API on
 * https://api.x.ai/v1 (or XAI_BASE_URL), `Authorization: Bearer <XAI_API_KEY>`:
 *   POST /responses {model, input: [{role: "user", content: <prompt>}], tools: [{type: "web_search"}]}
 *   -> {output: [{type: "message", content: [{type: "output_text", text, annotations: [url_citation...]}]}],
 *       citations: [url...]}
 * Grok searches, answers in a few cited sentences, and the sources become the hits
 * (`citations.ts`). The model is XAI_SEARCH_MODEL, else DEFAULT_MODEL. The Live Search
 * `search_parameters` of chat completions is gone (HTTP 410 since January 2026), hence the
 * Responses API.
 */

import type { WebApiSpec, WebSearchOptions } from '@hermes/plugin-sdk';
import {
  ApiWebProvider,
  bearerAuth,
  envValue,
  type ProviderEnv,
  searchAnswer,
  webProviderError,
} from '@hermes/plugin-sdk';
import { answerError, citationHits } from './citations.js';

/** A fast, low-cost Grok model that runs xAI's agent tools. */
export const DEFAULT_MODEL = 'grok-4-1-fast-non-reasoning';

/** What Grok is asked: search, then a short answer citing each source it used. */
export function searchPrompt(query: string, limit: number): string {
  return [
    'Search the web for the query below. Answer in short sentences, each citing the web page it comes from;',
    `cite up to ${limit} different pages, the most relevant first.`,
    '',
    `Query: ${query}`,
  ].join('\n');
}

/** xAI's API: Bearer auth; XAI_BASE_URL (with its /v1) for a proxy or a test fake. */
const XAI_API: WebApiSpec = {
  service: 'xAI',
  keyVar: 'XAI_API_KEY',
  baseUrlVars: ['XAI_BASE_URL'],
  defaultBaseUrl: 'https://api.x.ai/v1',
  auth: bearerAuth,
};

/** Search-only provider: Grok's web_search tool on the xAI Responses API (POST /v1/responses). */
export class XaiSearchProvider extends ApiWebProvider {
  readonly name = 'xai';
  readonly displayName = 'xAI web search (Grok)';
  protected readonly apiSpec = XAI_API;
  readonly #env: ProviderEnv;

  constructor(env: ProviderEnv = process.env) {
    super(env);
    this.#env = env;
  }

  override search(query: string, limit: number, { signal }: WebSearchOptions) {
    return searchAnswer(async () => {
      const answer = await this.api.post(
        'responses',
        {
          model: envValue(this.#env, 'XAI_SEARCH_MODEL') ?? DEFAULT_MODEL,
          input: [{ role: 'user', content: searchPrompt(query, limit) }],
          tools: [{ type: 'web_search' }],
        },
        signal,
      );
      const error = answerError(answer);
      if (error !== null) throw webProviderError(`xAI answered with an error: ${error}`);
      return citationHits(answer, limit);
    });
  }
}
