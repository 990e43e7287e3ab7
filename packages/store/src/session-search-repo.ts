/**
 * Full-text search over every stored transcript (`session_search`), on the FTS5 index that
 * migration 0006 built and its triggers keep current, the messages written since its last batch
 * indexed first (migration 18, search-index.ts): a query sees every committed message. The
 * model's query is never passed as FTS5 syntax: each word becomes a quoted phrase (quotes
 * doubled), so `"`, `*`, `NEAR(`, `-`, `:` and `AND` are plain text. All words must match; when
 * nothing does, any word may (ranked by bm25 either way). With `owner`, only the sessions opened for
 * that owner identity or an identity linked to it are searched (users apart).
 */
import type { SessionSearchHit, SessionSearchOptions } from '@hermes/protocol';
import type { SearchIndex } from './search-index.js';
import type { SqliteDatabase } from './sqlite.js';

export type { SessionSearchHit, SessionSearchOptions };

export interface SessionSearchRepo {
  /** The best matches first (bm25); [] when the query has no word to search for. */
  search(query: string, options: SessionSearchOptions): SessionSearchHit[];
}

/** The words of a query (those with a letter or digit), at most 32; both backends search these. */
export function searchWords(query: string): string[] {
  return query
    .split(/\s+/u)
    .filter((word) => /[\p{L}\p{N}]/u.test(word))
    .slice(0, 32);
}

/** The words of a query as FTS5 phrases: anything else the model typed is text, never syntax. */
export function ftsPhrases(query: string): string[] {
  return searchWords(query).map((word) => `"${word.replaceAll('"', '""')}"`);
}

export interface HitRow {
  session_id: string;
  platform: string;
  title: string | null;
  session_created_at: number;
  created_at: number;
  role: 'user' | 'assistant';
  snippet: string;
}

export const toHit = (row: HitRow): SessionSearchHit => ({
  sessionId: row.session_id,
  platform: row.platform,
  title: row.title,
  sessionCreatedAt: row.session_created_at,
  at: row.created_at,
  role: row.role,
  snippet: row.snippet,
});

/** Builds the repository; the statement is prepared once. */
export function createSessionSearchRepo(db: SqliteDatabase, index: SearchIndex): SessionSearchRepo {
  const select = (
    ownerFilter: string,
  ) => `SELECT m.session_id, s.platform, s.title, s.created_at AS session_created_at, m.created_at, m.role,
            snippet(messages_fts, 0, '[', ']', '…', 16) AS snippet
       FROM messages_fts
       JOIN messages m ON m.id = messages_fts.rowid
       JOIN sessions s ON s.id = m.session_id
      WHERE messages_fts MATCH @match AND m.session_id <> @exclude${ownerFilter}
      ORDER BY bm25(messages_fts)
      LIMIT @limit`;
  type Params = { match: string; exclude: string; limit: number; owner?: string };
  const search = db.prepare<[Params], HitRow>(select(''));
  const searchOwned = db.prepare<[Params], HitRow>(
    select(` AND COALESCE((SELECT l.owner FROM identity_links l WHERE l.identity = s.user_key), s.user_key) = @owner`),
  );
  const run = (match: string, options: SessionSearchOptions): SessionSearchHit[] => {
    const params = { match, exclude: options.excludeSessionId ?? '', limit: options.limit };
    const rows =
      options.owner === undefined ? search.all(params) : searchOwned.all({ ...params, owner: options.owner });
    return rows.map(toHit);
  };
  return {
    search(query, options) {
      const phrases = ftsPhrases(query);
      if (phrases.length === 0) return [];
      try {
        index.catchUp();
      } catch {
        // (a read-only connection, a busy writer past the timeout) the messages indexed so far are searched
      }
      const all = run(phrases.join(' '), options);
      return all.length > 0 || phrases.length === 1 ? all : run(phrases.join(' OR '), options);
    },
  };
}
