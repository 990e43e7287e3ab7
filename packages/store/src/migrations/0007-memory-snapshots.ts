import type { Migration } from '../migration.js';
import { ddl } from './dialect.js';

/**
 * The memory block each session's system prompt carries: taken from the memory provider when the
 * session's first turn runs and reused for every later turn, also after a restart, so the system
 * prompt stays byte-identical for the session (provider prompt caches keep hitting). It goes with
 * its session (ON DELETE CASCADE).
 */
export const memorySnapshots: Migration = {
  version: 7,
  name: 'memory snapshots',
  ...ddl(
    (d) => `
CREATE TABLE memory_snapshots (
  session_id TEXT PRIMARY KEY NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  provider TEXT NOT NULL,
  block TEXT NOT NULL,
  created_at ${d.int64} NOT NULL
);
`,
  ),
};
