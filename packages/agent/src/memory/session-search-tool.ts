/**
 * The `session_search` tool `{query, limit?}`: full-text search over the asking user's stored
 * transcripts (the store's FTS5 index; the sessions opened for the turn's owner identity or an
 * identity linked to it, never another user's), answering with session ids, dates and ranked snippets. The session asking
 * is left out (its messages are already in the model's context). The query is plain words: FTS5
 * syntax in it is searched as text, never an error.
 */
import type { MaybePromise, SessionSearchHit, SessionSearchOptions, ToolDefinition } from '@hermes/protocol';
import { parseArgs, requiredString, ToolArgumentError } from '../tools/tool-args.js';

export const SESSION_SEARCH_TOOL = 'session_search';
export const SESSION_SEARCH_DEFAULT_LIMIT = 5;
export const SESSION_SEARCH_MAX_LIMIT = 20;

/** What the tool searches (the store's `sessionSearch` satisfies it). */
export interface SessionSearchSource {
  search(query: string, options: SessionSearchOptions): MaybePromise<SessionSearchHit[]>;
}

function readLimit(args: Record<string, unknown>): number {
  const value = args.limit;
  if (value === undefined || value === null) return SESSION_SEARCH_DEFAULT_LIMIT;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new ToolArgumentError(
      `Invalid argument "limit": expected a whole number from 1 to ${SESSION_SEARCH_MAX_LIMIT}`,
    );
  }
  return Math.min(value, SESSION_SEARCH_MAX_LIMIT);
}

export function createSessionSearchTool(source: SessionSearchSource): ToolDefinition {
  return {
    name: SESSION_SEARCH_TOOL,
    toolset: SESSION_SEARCH_TOOL,
    owner: 'builtin',
    emoji: '🔎',
    schema: {
      name: SESSION_SEARCH_TOOL,
      description:
        "Search the transcripts of this user's earlier sessions (not this one) by words. Answers the best matches first, " +
        'each with its session id, dates and a snippet where [matched words] are bracketed. Plain words work best.',
      parameters: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'words to look for; all of them, else any' },
          limit: {
            type: 'integer',
            minimum: 1,
            maximum: SESSION_SEARCH_MAX_LIMIT,
            default: SESSION_SEARCH_DEFAULT_LIMIT,
          },
        },
        required: ['query'],
      },
    },
    handler: async (args, context) => {
      const parsed = parseArgs(() => ({ query: requiredString(args, 'query'), limit: readLimit(args) }));
      if (!parsed.ok) return { success: false, error: parsed.error, code: parsed.code };
      const { query, limit } = parsed.value;
      if (context.user === undefined) {
        return { success: false, error: 'session_search is per user and this turn has no user identity' };
      }
      const hits = await source.search(query, {
        limit,
        owner: context.user.key,
        ...(context.sessionId ? { excludeSessionId: context.sessionId } : {}),
      });
      return {
        success: true,
        query,
        results: hits.map((hit) => ({
          session_id: hit.sessionId,
          platform: hit.platform,
          ...(hit.title ? { title: hit.title } : {}),
          session_started: new Date(hit.sessionCreatedAt).toISOString(),
          date: new Date(hit.at).toISOString(),
          role: hit.role,
          snippet: hit.snippet,
        })),
        ...(hits.length === 0 ? { note: 'no earlier session matched; try other or fewer words' } : {}),
      };
    },
  };
}
