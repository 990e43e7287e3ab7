import type { Migration } from '../migration.js';

/**
 * Bytes of files stored for a user in the UTC day (`media.daily_upload_mb`, issue 28): a column of
 * the `day` usage counter, so the quota survives restarts and instances on one PostgreSQL
 * database share it, as the token and cost budgets do.
 */
export const usageUploads: Migration = {
  version: 17,
  name: 'usage uploads',
  sql: `
ALTER TABLE usage_counters ADD COLUMN uploads INTEGER NOT NULL DEFAULT 0;
`,
  pg: `
ALTER TABLE usage_counters ADD COLUMN uploads BIGINT NOT NULL DEFAULT 0;
`,
};
