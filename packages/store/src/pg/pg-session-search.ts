/**
 * `session_search` on PostgreSQL: the generated `messages.search` tsvector (config `simple`: no
 * stemming, like FTS5's unicode61) and its GIN index (migration 6). The model's words are never
 * tsquery syntax: each goes through `plainto_tsquery`, and the pieces are joined with & (all words),
 * falling back to | (any word) when nothing matches; ranked by ts_rank. `owner`: that user's sessions only.
 */
import type { AsyncMethods } from '../async-store.js';
import {
  type HitRow,
  type SessionSearchHit,
  type SessionSearchOptions,
  type SessionSearchRepo,
  searchWords,
  toHit,
} from '../session-search-repo.js';
import { type PgQueryable, pgRows } from './pg-db.js';

// the session's user resolved to its owner (identity links) is the one asking
const OWNED = ` AND COALESCE((SELECT l.owner FROM identity_links l WHERE l.identity = s.user_key), s.user_key) = $4`;

const searchSql = (joiner: '&' | '|', owned: boolean) => `
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
   WHERE q.tsq IS NOT NULL AND m.session_id <> $2${owned ? OWNED : ''}
   ORDER BY ts_rank(m.search, q.tsq) DESC, m.id
   LIMIT $3`;

export function createPgSessionSearchRepo(db: PgQueryable): AsyncMethods<SessionSearchRepo> {
  const run = async (
    words: string[],
    joiner: '&' | '|',
    options: SessionSearchOptions,
  ): Promise<SessionSearchHit[]> => {
    const params: unknown[] = [words, options.excludeSessionId ?? '', options.limit];
    if (options.owner !== undefined) params.push(options.owner);
    const rows = await pgRows<HitRow>(db, searchSql(joiner, options.owner !== undefined), params);
    return rows.map(toHit);
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
