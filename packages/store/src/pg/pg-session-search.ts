/**
 * `session_search` on PostgreSQL: the generated `messages.search` tsvector (config `simple`: no
 * stemming, like FTS5's unicode61) and its GIN index (migration 6). The model's words are never
 * tsquery syntax: each goes through `plainto_tsquery`, and the pieces are joined with & (all words),
 * falling back to | (any word) when nothing matches; ranked by ts_rank.
 */
import type { AsyncMethods } from '../async-store.js';
import type { SessionSearchHit, SessionSearchOptions, SessionSearchRepo } from '../session-search-repo.js';
import { type PgQueryable, pgRows } from './pg-db.js';

interface HitRow {
  session_id: string;
  platform: string;
  title: string | null;
  session_created_at: number;
  created_at: number;
  role: 'user' | 'assistant';
  snippet: string;
}

/** The words of a query (those with a letter or digit), at most 32, as in the SQLite search. */
export function searchWords(query: string): string[] {
  return query
    .split(/\s+/u)
    .filter((word) => /[\p{L}\p{N}]/u.test(word))
    .slice(0, 32);
}

const searchSql = (joiner: '&' | '|') => `
  WITH q AS (
    SELECT string_agg('(' || plainto_tsquery('simple', w)::text || ')', ' ${joiner} ')::tsquery AS tsq
      FROM unnest($1::text[]) AS w WHERE plainto_tsquery('simple', w)::text <> ''
  )
  SELECT m.session_id, s.platform, s.title, s.created_at AS session_created_at, m.created_at, m.role,
         ts_headline('simple', m.content, q.tsq,
           'StartSel=[, StopSel=], MaxWords=16, MinWords=6, ShortWord=0, HighlightAll=false') AS snippet
    FROM q
    JOIN messages m ON m.search @@ q.tsq
    JOIN sessions s ON s.id = m.session_id
   WHERE q.tsq IS NOT NULL AND m.session_id <> $2
   ORDER BY ts_rank(m.search, q.tsq) DESC, m.id
   LIMIT $3`;

export function createPgSessionSearchRepo(db: PgQueryable): AsyncMethods<SessionSearchRepo> {
  const run = async (
    words: string[],
    joiner: '&' | '|',
    options: SessionSearchOptions,
  ): Promise<SessionSearchHit[]> => {
    const rows = await pgRows<HitRow>(db, searchSql(joiner), [words, options.excludeSessionId ?? '', options.limit]);
    return rows.map((row) => ({
      sessionId: row.session_id,
      platform: row.platform,
      title: row.title,
      sessionCreatedAt: row.session_created_at,
      at: row.created_at,
      role: row.role,
      snippet: row.snippet,
    }));
  };
  return {
    async search(query, options) {
      const words = searchWords(query);
      if (words.length === 0) return [];
      const all = await run(words, '&', options);
      return all.length > 0 || words.length === 1 ? all : run(words, '|', options);
    },
  };
}
