import type { Migration } from '../migration.js';

/**
 * PLACEHOLDER for migration 14, which belongs to issue 28's "users" part (identities and links):
 * migrations must run 1, 2, 3, … so the tiers part (15) needs an entry here. It changes nothing;
 * the users branch's real 0014 replaces this file and entry when the branches merge.
 */
export const usersPlaceholder: Migration = {
  version: 14,
  name: 'users (placeholder)',
  sql: `
-- issue 28 users part: replaced at merge
`,
  pg: `
-- issue 28 users part: replaced at merge
`,
};
