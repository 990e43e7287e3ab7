import type { Migration } from '../migration.js';

/**
 * A scheduled job's pre-run script and its upstream job (issue 35, docs/cron.md): `script`, the
 * name of a file in HERMES_HOME/scripts run before each run (its last stdout line may say
 * `{"wakeAgent": false}`: the run is skipped), and `context_from`, the id of the job whose latest
 * answer (`cron_fires.answer`) is given to each run. No foreign key: a removed upstream is said at
 * the run, not unlinked silently.
 */
export const cronScriptContext: Migration = {
  version: 20,
  name: 'cron script and context_from',
  sql: `
ALTER TABLE cron_jobs ADD COLUMN script TEXT;
ALTER TABLE cron_jobs ADD COLUMN context_from TEXT;
`,
  pg: `
ALTER TABLE cron_jobs ADD COLUMN script TEXT;
ALTER TABLE cron_jobs ADD COLUMN context_from TEXT;
`,
};
