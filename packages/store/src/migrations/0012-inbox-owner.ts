import type { Migration } from '../migration.js';

/**
 * Which gateway instance is answering an unfinished inbox row (several instances on one
 * PostgreSQL database, docs/scaling.md). An instance resumes only the rows it owns, rows nobody
 * owns, and rows it claimed from an instance that stopped beating; one instance on state.db
 * leaves it empty.
 */
export const inboxOwner: Migration = {
  version: 12,
  name: 'inbox owner',
  sql: `
ALTER TABLE inbox ADD COLUMN owner TEXT;
`,
  pg: `
ALTER TABLE inbox ADD COLUMN owner TEXT;
CREATE INDEX inbox_unfinished_owner ON inbox (owner) WHERE status IN ('accepted', 'processing');
`,
};
