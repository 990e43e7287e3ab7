import type { Migration } from '../migration.js';
import { ddl } from './dialect.js';

/**
 * The Responses API's stored responses: which session each response id belongs to and how many
 * transcript messages that session held once it was answered, so `previous_response_id` continues
 * the conversation from that point (or forks it, when later turns followed). Rows go with their
 * session (ON DELETE CASCADE, so retention prunes them too).
 */
export const apiResponses: Migration = {
  version: 4,
  name: 'api responses',
  ...ddl(
    (d) => `
CREATE TABLE api_responses (
  id TEXT PRIMARY KEY NOT NULL,
  session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  message_count INTEGER NOT NULL,
  created_at ${d.int64} NOT NULL
);
CREATE INDEX api_responses_by_session ON api_responses (session_id);
`,
  ),
};
