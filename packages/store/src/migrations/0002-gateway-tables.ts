import type { Migration } from '../migration.js';

/**
 * The gateway's durable state: the inbox (dedupe keys and the accepted-message log), the outbox
 * (reply chunks with a delivered mark), per-platform key/value state (update offsets, …), and
 * pairing (pending codes, failed approve attempts for the rate limit, approved users).
 */
export const gatewayTables: Migration = {
  version: 2,
  name: 'gateway tables',
  sql: `
CREATE TABLE inbox (
  id INTEGER PRIMARY KEY,
  platform TEXT NOT NULL,
  message_key TEXT NOT NULL,
  session_key TEXT,
  payload TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('accepted', 'processing', 'done', 'skipped', 'failed', 'interrupted')),
  accepted_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  UNIQUE (platform, message_key)
);
-- Crash recovery reads the unfinished rows only: a partial index keeps that scan small.
CREATE INDEX inbox_unfinished ON inbox (accepted_at, id) WHERE status IN ('accepted', 'processing');

CREATE TABLE outbox (
  id INTEGER PRIMARY KEY,
  inbox_id INTEGER REFERENCES inbox (id) ON DELETE SET NULL,
  platform TEXT NOT NULL,
  chat_id TEXT NOT NULL,
  thread_id TEXT,
  chunk_index INTEGER NOT NULL,
  text TEXT NOT NULL,
  formatted INTEGER NOT NULL CHECK (formatted IN (0, 1)),
  status TEXT NOT NULL CHECK (status IN ('pending', 'sent', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  platform_message_id TEXT,
  created_at INTEGER NOT NULL,
  sent_at INTEGER
);
-- A reply redone for the same inbound message never duplicates its chunks.
CREATE UNIQUE INDEX outbox_inbox_chunk ON outbox (inbox_id, chunk_index) WHERE inbox_id IS NOT NULL;
CREATE INDEX outbox_pending ON outbox (platform, id) WHERE status = 'pending';

CREATE TABLE platform_state (
  platform TEXT NOT NULL,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (platform, key)
) WITHOUT ROWID;

CREATE TABLE pairing_requests (
  platform TEXT NOT NULL,
  user_id TEXT NOT NULL,
  user_name TEXT,
  code TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (platform, user_id),
  UNIQUE (platform, code)
);
CREATE INDEX pairing_requests_expiry ON pairing_requests (expires_at);

CREATE TABLE pairing_failures (
  id INTEGER PRIMARY KEY,
  platform TEXT NOT NULL,
  at INTEGER NOT NULL
);
CREATE INDEX pairing_failures_by_platform ON pairing_failures (platform, at);

CREATE TABLE approved_users (
  platform TEXT NOT NULL,
  user_id TEXT NOT NULL,
  user_name TEXT,
  approved_at INTEGER NOT NULL,
  PRIMARY KEY (platform, user_id)
) WITHOUT ROWID;
`,
};
