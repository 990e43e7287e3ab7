import type { Migration } from '../migration.js';

/**
 * `session_search`: an external-content FTS5 index over the user and assistant messages of every
 * transcript (the text lives once, in `messages`; the index holds only tokens). Triggers keep it in
 * step with every insert, update and delete of `messages` (a session deleted by a prune or a reset
 * takes its rows with it through ON DELETE CASCADE, which fires the delete trigger); the rows
 * already stored are indexed once, here. Tool results and system messages are not indexed.
 */
const indexed = (row: 'new' | 'old' | null): string => {
  const at = row === null ? '' : `${row}.`;
  return `${at}role IN ('user', 'assistant') AND ${at}content IS NOT NULL`;
};

export const sessionSearch: Migration = {
  version: 6,
  name: 'session search',
  sql: `
CREATE VIRTUAL TABLE messages_fts USING fts5(
  content,
  content = 'messages',
  content_rowid = 'id',
  tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages
  WHEN ${indexed('new')}
BEGIN
  INSERT INTO messages_fts (rowid, content) VALUES (new.id, new.content);
END;
CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages
  WHEN ${indexed('old')}
BEGIN
  INSERT INTO messages_fts (messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
END;
CREATE TRIGGER messages_fts_update AFTER UPDATE OF role, content ON messages
BEGIN
  INSERT INTO messages_fts (messages_fts, rowid, content)
    SELECT 'delete', old.id, old.content WHERE ${indexed('old')};
  INSERT INTO messages_fts (rowid, content) SELECT new.id, new.content WHERE ${indexed('new')};
END;
INSERT INTO messages_fts (rowid, content) SELECT id, content FROM messages WHERE ${indexed(null)};
`,
  pg: `
ALTER TABLE messages ADD COLUMN search tsvector GENERATED ALWAYS AS (
  CASE WHEN role IN ('user', 'assistant') AND content IS NOT NULL THEN to_tsvector('simple', content) END
) STORED;
CREATE INDEX messages_search ON messages USING GIN (search);
`,
};
