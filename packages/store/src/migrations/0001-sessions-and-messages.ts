import type { Migration } from '../migration.js';

/** Sessions (one conversation per session key at a time) and their ordered transcript messages. */
export const sessionsAndMessages: Migration = {
  version: 1,
  name: 'sessions and messages',
  sql: `
CREATE TABLE sessions (
  id TEXT PRIMARY KEY NOT NULL,
  session_key TEXT NOT NULL,
  platform TEXT NOT NULL,
  model TEXT,
  title TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  ended_at INTEGER,
  end_reason TEXT
);
-- The active session of a key is the latest one not ended: a partial index keeps that lookup tiny.
CREATE INDEX sessions_active_by_key ON sessions (session_key, created_at DESC) WHERE ended_at IS NULL;
CREATE INDEX sessions_by_updated ON sessions (updated_at DESC);
CREATE INDEX sessions_by_platform_updated ON sessions (platform, updated_at DESC);

CREATE TABLE messages (
  id INTEGER PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant', 'tool')),
  content TEXT,
  tool_calls TEXT,
  tool_call_id TEXT,
  name TEXT,
  created_at INTEGER NOT NULL,
  UNIQUE (session_id, seq)
);
`,
};
