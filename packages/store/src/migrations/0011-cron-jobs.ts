import type { Migration } from '../migration.js';
import { ddl } from './dialect.js';

/**
 * Scheduled jobs (`hermes cron`, the `cronjob` tool) and their fires. A fire is claimed by inserting
 * its (job_id, slot_time) row in the transaction that moves the job's next_run_at on, so each
 * scheduled slot runs once across restarts; its answer is delivered under an inbox row of platform
 * `cron` (message key `<job id>@<slot>`), so the outbox's (inbox_id, chunk_index) key makes the
 * delivery exactly once too.
 */
export const cronJobs: Migration = {
  version: 11,
  name: 'cron jobs',
  ...ddl(
    (d) => `
CREATE TABLE cron_jobs (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  schedule TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('cron', 'every', 'once')),
  expr TEXT NOT NULL,
  prompt TEXT NOT NULL,
  toolsets TEXT,
  deliver TEXT NOT NULL,
  owner TEXT NOT NULL,
  timezone TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('active', 'paused', 'done')),
  next_run_at ${d.int64},
  run_requested_at ${d.int64},
  last_run_at ${d.int64},
  last_status TEXT,
  last_error TEXT,
  failures INTEGER NOT NULL DEFAULT 0,
  created_at ${d.int64} NOT NULL,
  updated_at ${d.int64} NOT NULL
);
CREATE INDEX cron_jobs_due ON cron_jobs (next_run_at) WHERE state = 'active';

CREATE TABLE cron_fires (
  id ${d.rowId},
  job_id TEXT NOT NULL REFERENCES cron_jobs (id) ON DELETE CASCADE,
  slot_time ${d.int64} NOT NULL,
  inbox_id ${d.int64} REFERENCES inbox (id) ON DELETE SET NULL,
  status TEXT NOT NULL CHECK (status IN ('running', 'answered', 'delivered', 'silent', 'failed', 'interrupted')),
  answer TEXT,
  error TEXT,
  started_at ${d.int64} NOT NULL,
  finished_at ${d.int64},
  UNIQUE (job_id, slot_time)
);
CREATE INDEX cron_fires_unfinished ON cron_fires (id) WHERE status IN ('running', 'answered');
`,
  ),
};
