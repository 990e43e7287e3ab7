import type { Migration } from '../migration.js';

/**
 * The inbox status `refused`: a stranger's message kept but never answered (their one pairing reply
 * an hour was already sent). SQLite cannot change a CHECK constraint in place, so the table is
 * rebuilt. Dropping the old table runs its ON DELETE SET NULL on outbox.inbox_id (foreign keys
 * are on and cannot be switched off inside the migration's transaction): the links are saved in a
 * temporary table first and put back after.
 */
export const inboxRefusedStatus: Migration = {
  version: 3,
  name: 'inbox refused status',
  sql: `
CREATE TEMP TABLE outbox_inbox_links AS SELECT id, inbox_id FROM outbox WHERE inbox_id IS NOT NULL;
CREATE TABLE inbox_v3 (
  id INTEGER PRIMARY KEY,
  platform TEXT NOT NULL,
  message_key TEXT NOT NULL,
  session_key TEXT,
  payload TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('accepted', 'processing', 'done', 'skipped', 'refused', 'failed', 'interrupted')),
  accepted_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  UNIQUE (platform, message_key)
);
INSERT INTO inbox_v3 (id, platform, message_key, session_key, payload, status, accepted_at, updated_at, attempts)
  SELECT id, platform, message_key, session_key, payload, status, accepted_at, updated_at, attempts FROM inbox;
DROP TABLE inbox;
ALTER TABLE inbox_v3 RENAME TO inbox;
CREATE INDEX inbox_unfinished ON inbox (accepted_at, id) WHERE status IN ('accepted', 'processing');
UPDATE outbox SET inbox_id = (SELECT l.inbox_id FROM outbox_inbox_links l WHERE l.id = outbox.id)
  WHERE id IN (SELECT id FROM outbox_inbox_links);
DROP TABLE outbox_inbox_links;
`,
  pg: `
ALTER TABLE inbox DROP CONSTRAINT inbox_status_check,
  ADD CONSTRAINT inbox_status_check
    CHECK (status IN ('accepted', 'processing', 'done', 'skipped', 'refused', 'failed', 'interrupted'));
`,
};
