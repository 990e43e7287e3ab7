import type { Migration } from '../migration.js';
import { ddl } from './dialect.js';

/**
 * Children of `delegate_task`: each child's transcript is an ordinary session (its own `sessions`
 * row and `messages`), linked here to the session that delegated it. The parent is not a foreign
 * key (a stateless API request delegates from a session that is never stored); the child is, so
 * pruning a child's session removes its link.
 */
export const childSessions: Migration = {
  version: 8,
  name: 'child sessions',
  ...ddl(
    (d) => `
CREATE TABLE child_sessions (
  child_id TEXT PRIMARY KEY NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  parent_id TEXT NOT NULL,
  task_index INTEGER NOT NULL,
  role TEXT,
  goal TEXT NOT NULL,
  status TEXT CHECK (status IN ('completed', 'failed', 'interrupted', 'error')),
  duration_ms ${d.int64},
  created_at ${d.int64} NOT NULL
);
CREATE INDEX child_sessions_by_parent ON child_sessions (parent_id, created_at, task_index);
`,
  ),
};
