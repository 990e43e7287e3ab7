/** What the model reads about web_search and web_extract. */
import type { ToolSchema } from '@hermes/protocol';

/** Results per search: default and most. */
export const SEARCH_LIMIT_DEFAULT = 5;
export const SEARCH_LIMIT_MAX = 20;
/** URLs per web_extract call. */
export const EXTRACT_MAX_URLS = 5;
/** Pages and link hops of a crawl: defaults and most. */
export const CRAWL_LIMIT_DEFAULT = 10;
export const CRAWL_LIMIT_MAX = 50;
export const CRAWL_DEPTH_DEFAULT = 1;
export const CRAWL_DEPTH_MAX = 3;

export const WEB_SEARCH_SCHEMA: ToolSchema = {
  name: 'web_search',
  description:
    'Search the web. Returns JSON {success, provider, data: {web: [{title, url, description, position}]}} or ' +
    '{success: false, error}. Use it for current events and facts you are unsure of; read a result with web_extract.',
  parameters: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'what to search for, as you would type it into a search engine' },
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: SEARCH_LIMIT_MAX,
        description: `how many results (default ${SEARCH_LIMIT_DEFAULT})`,
      },
    },
    required: ['query'],
  },
};

export const WEB_EXTRACT_SCHEMA: ToolSchema = {
  name: 'web_extract',
  description:
    'Read web pages. Returns JSON {success, provider, data: [{url, title, content, metadata?, error?}]} with each ' +
    'page as clean Markdown (or plain text). A URL that failed has `error` and the others still come back. ' +
    'mode "crawl" starts at one URL, follows its links on the same site and returns several pages ' +
    '(limit, depth, instructions).',
  parameters: {
    type: 'object',
    properties: {
      urls: {
        type: 'array',
        items: { type: 'string' },
        minItems: 1,
        maxItems: EXTRACT_MAX_URLS,
        description: `absolute http(s) URLs, at most ${EXTRACT_MAX_URLS} (exactly one with mode "crawl")`,
      },
      format: { type: 'string', enum: ['markdown', 'text'], description: 'content format (default markdown)' },
      mode: {
        type: 'string',
        enum: ['page', 'crawl'],
        description: 'page (default): just these URLs; crawl: the start URL and pages linked from it',
      },
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: CRAWL_LIMIT_MAX,
        description: `crawl: most pages to return (default ${CRAWL_LIMIT_DEFAULT})`,
      },
      depth: {
        type: 'integer',
        minimum: 1,
        maximum: CRAWL_DEPTH_MAX,
        description: `crawl: most link hops from the start URL (default ${CRAWL_DEPTH_DEFAULT})`,
      },
      instructions: {
        type: 'string',
        description: 'crawl: what to look for, in plain words (e.g. "the API reference pages"), where supported',
      },
    },
    required: ['urls'],
  },
};
