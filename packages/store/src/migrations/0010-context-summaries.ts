import type { Migration } from '../migration.js';
import { ddl } from './dialect.js';

/**
 * The context engine's summaries, beside the full transcript (which is never shortened): a session's
 * newest row says what the next request is built from: its first `head_count` messages, the summary,
 * then its messages from position `keep_from` (0-based, i.e. seq > keep_from) on.
 * (Numbered 0008 in issue 19's plan; its version is its place in MIGRATIONS.)
 */
export const contextSummaries: Migration = {
  version: 10,
  name: 'context summaries',
  ...ddl(
    (d) => `
CREATE TABLE context_summaries (
  id ${d.rowId},
  session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  head_count INTEGER NOT NULL CHECK (head_count >= 0),
  keep_from INTEGER NOT NULL CHECK (keep_from >= head_count),
  summary TEXT NOT NULL,
  created_at ${d.int64} NOT NULL
);
CREATE INDEX context_summaries_session ON context_summaries (session_id, id);
`,
  ),
};
