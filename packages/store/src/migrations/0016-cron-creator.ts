import type { Migration } from '../migration.js';

/**
 * Who made a scheduled job (issue 28: users apart): the identity `<platform>:<userId>` of the user
 * whose model created it with the `cronjob` tool. Its runs are that user's turns (their tier, their
 * tools, their memory); a job made by the operator (`hermes cron add`) has none.
 */
export const cronCreator: Migration = {
  version: 16,
  name: 'cron creator',
  sql: `
ALTER TABLE cron_jobs ADD COLUMN creator TEXT;
`,
  pg: `
ALTER TABLE cron_jobs ADD COLUMN creator TEXT;
`,
};
