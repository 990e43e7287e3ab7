import type { Migration } from '../migration.js';

/**
 * `session_search`'s FTS5 index written in batches instead of one row at a time: an insert into
 * `messages` now only queues the row's id in `messages_fts_pending`, and the queued rows are indexed
 * together (search-index.ts: before every search, and once enough are queued). FTS5 writes a new
 * segment (and merges) at every commit that touched it, so indexing inside each small gateway commit
 * cost several times the insert itself. The delete and update triggers know both states: a queued
 * row leaves the queue (it was never indexed); an indexed row leaves the index, as before. A queued
 * id names a `messages` row until it is indexed or deleted, so an id SQLite hands out again after a
 * delete is queued afresh and never mistaken for an indexed one. PostgreSQL's index is a generated
 * column (migration 6): nothing changes there.
 */
const indexed = (row: 'new' | 'old'): string => `${row}.role IN ('user', 'assistant') AND ${row}.content IS NOT NULL`;
const queued = (row: 'new' | 'old'): string => `EXISTS (SELECT 1 FROM messages_fts_pending WHERE id = ${row}.id)`;

export const searchIndexBatches: Migration = {
  version: 18,
  name: 'search index batches',
  sql: `
CREATE TABLE messages_fts_pending (id INTEGER PRIMARY KEY);
DROP TRIGGER messages_fts_insert;
DROP TRIGGER messages_fts_delete;
DROP TRIGGER messages_fts_update;
CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages
  WHEN ${indexed('new')}
BEGIN
  INSERT OR IGNORE INTO messages_fts_pending (id) VALUES (new.id);
END;
CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages
  WHEN ${indexed('old')}
BEGIN
  INSERT INTO messages_fts (messages_fts, rowid, content)
    SELECT 'delete', old.id, old.content WHERE NOT ${queued('old')};
  DELETE FROM messages_fts_pending WHERE id = old.id;
END;
CREATE TRIGGER messages_fts_update AFTER UPDATE OF role, content ON messages
BEGIN
  INSERT INTO messages_fts (messages_fts, rowid, content)
    SELECT 'delete', old.id, old.content WHERE ${indexed('old')} AND NOT ${queued('old')};
  DELETE FROM messages_fts_pending WHERE id = old.id;
  INSERT INTO messages_fts_pending (id) SELECT new.id WHERE ${indexed('new')};
END;
`,
  // PostgreSQL keeps its index in a generated column: nothing to change
  pg: 'SELECT 1;',
};
