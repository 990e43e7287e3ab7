import type { Migration } from '../migration.js';

/**
 * Outbox rows of kind `media`: an attachment of an answer (a `MEDIA:` line, `send_message` media),
 * whose `text` holds the absolute path of the file to upload. Existing rows are text.
 */
export const outboxMediaKind: Migration = {
  version: 5,
  name: 'outbox media kind',
  sql: `
ALTER TABLE outbox ADD COLUMN kind TEXT NOT NULL DEFAULT 'text' CHECK (kind IN ('text', 'media'));
`,
  pg: `
ALTER TABLE outbox ADD COLUMN kind TEXT NOT NULL DEFAULT 'text' CHECK (kind IN ('text', 'media'));
`,
};
