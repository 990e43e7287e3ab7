import type { Migration } from '../migration.js';

/**
 * The model a session was switched to with `/model [provider:]model`: one row per session that
 * left the configured default, removed with the session. Sessions without a row use the default.
 */
export const sessionModel: Migration = {
  // issue 19: 0006-0008 belong to other parts of the issue; the lead renumbers this entry when they land
  version: 9,
  name: 'session model',
  sql: `
CREATE TABLE session_models (
  session_id TEXT PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
  provider TEXT NOT NULL,
  model TEXT NOT NULL,
  updated_at INTEGER NOT NULL
);
`,
  pg: `
CREATE TABLE session_models (
  session_id TEXT PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
  provider TEXT NOT NULL,
  model TEXT NOT NULL,
  updated_at BIGINT NOT NULL
);
`,
};
