import type { AsyncMethods } from '../async-store.js';
import {
  type CronJobsRepo,
  editParams,
  type FireRecord,
  type JobRecord,
  newCronJobId,
  toFire,
  toJob,
} from '../cron-jobs-repo.js';
import { inPgTransaction, type PgQueryable, pgChanges, pgRow, pgRows } from './pg-db.js';

/**
 * Scheduled jobs on PostgreSQL. A fire is claimed by its UNIQUE (job_id, slot_time) row in the
 * transaction that moves the job on, so two instances checking the same due job fire it once.
 */
export function createPgCronJobsRepo(pool: PgQueryable, now: () => number): AsyncMethods<CronJobsRepo> {
  const select = (id: string) => pgRow<JobRecord>(pool, 'SELECT * FROM cron_jobs WHERE id = $1', [id]);
  return {
    async add(job) {
      const id = newCronJobId();
      const at = job.createdAt ?? now();
      await pool.query(
        `INSERT INTO cron_jobs (id, name, schedule, kind, expr, prompt, toolsets, deliver, owner, timezone, state,
           next_run_at, created_at, updated_at, creator, script, context_from)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'active', $11, $12, $12, $13, $14, $15)`,
        [
          id,
          job.name,
          job.schedule,
          job.kind,
          job.expr,
          job.prompt,
          job.toolsets === null ? null : JSON.stringify(job.toolsets),
          job.deliver,
          job.owner,
          job.timezone,
          job.nextRunAt,
          at,
          job.creator ?? null,
          job.script ?? null,
          job.contextFrom ?? null,
        ],
      );
      const row = await select(id);
      if (!row) throw new Error(`cron job ${id} was not written`);
      return toJob(row);
    },
    async get(id) {
      const r = await select(id);
      return r ? toJob(r) : undefined;
    },
    async list(options = {}) {
      const rows = options.owner
        ? await pgRows<JobRecord>(
            pool,
            'SELECT * FROM cron_jobs WHERE owner = $1 ORDER BY created_at, id COLLATE "C"',
            [options.owner],
          )
        : await pgRows<JobRecord>(pool, 'SELECT * FROM cron_jobs ORDER BY created_at, id COLLATE "C"');
      return rows.map(toJob);
    },
    remove: async (id) => (await pgChanges(pool, 'DELETE FROM cron_jobs WHERE id = $1', [id])) > 0,
    async update(id, edit) {
      const p = editParams(edit);
      const changes = await pgChanges(
        pool,
        `UPDATE cron_jobs SET
           name = CASE WHEN $1 = 1 THEN $2 ELSE name END,
           prompt = CASE WHEN $3 = 1 THEN $4 ELSE prompt END,
           deliver = CASE WHEN $5 = 1 THEN $6 ELSE deliver END,
           toolsets = CASE WHEN $7 = 1 THEN $8 ELSE toolsets END,
           script = CASE WHEN $9 = 1 THEN $10 ELSE script END,
           context_from = CASE WHEN $11 = 1 THEN $12 ELSE context_from END,
           updated_at = $13
         WHERE id = $14`,
        [
          p.set_name,
          p.name,
          p.set_prompt,
          p.prompt,
          p.set_deliver,
          p.deliver,
          p.set_toolsets,
          p.toolsets,
          p.set_script,
          p.script,
          p.set_context_from,
          p.context_from,
          now(),
          id,
        ],
      );
      return changes > 0;
    },
    async latestAnswer(jobId) {
      const r = await pgRow<FireRecord>(
        pool,
        'SELECT * FROM cron_fires WHERE job_id = $1 AND answer IS NOT NULL ORDER BY slot_time DESC, id DESC LIMIT 1',
        [jobId],
      );
      return r ? toFire(r) : undefined;
    },
    async setState(id, state, nextRunAt) {
      const changes =
        nextRunAt === undefined
          ? await pgChanges(
              pool,
              'UPDATE cron_jobs SET state = $1, run_requested_at = NULL, updated_at = $2 WHERE id = $3',
              [state, now(), id],
            )
          : await pgChanges(
              pool,
              'UPDATE cron_jobs SET state = $1, next_run_at = $2, run_requested_at = NULL, updated_at = $3 WHERE id = $4',
              [state, nextRunAt, now(), id],
            );
      return changes > 0;
    },
    async setNextRun(id, nextRunAt) {
      await pool.query('UPDATE cron_jobs SET next_run_at = $1, updated_at = $2 WHERE id = $3', [nextRunAt, now(), id]);
    },
    async requestRun(id) {
      const at = now();
      const sql = "UPDATE cron_jobs SET run_requested_at = $1, updated_at = $1 WHERE id = $2 AND state != 'done'";
      return (await pgChanges(pool, sql, [at, id])) > 0;
    },
    async due(at) {
      const rows = await pgRows<JobRecord>(
        pool,
        `SELECT * FROM cron_jobs WHERE state = 'active' AND (next_run_at <= $1 OR run_requested_at IS NOT NULL)
         ORDER BY COALESCE(run_requested_at, next_run_at), id COLLATE "C"`,
        [at],
      );
      return rows.map(toJob);
    },
    async nextDue(at) {
      const r = await pgRow<{ next: number | null; requested: number }>(
        pool,
        `SELECT MIN(next_run_at) AS next, COUNT(run_requested_at) AS requested FROM cron_jobs WHERE state = 'active'`,
      );
      if (!r) return null;
      if (r.requested > 0) return at;
      return r.next;
    },
    claimFire: (jobId, slot, next) =>
      inPgTransaction(pool, async (client) => {
        const at = now();
        const key = `${jobId}@${slot}`;
        await client.query(
          `INSERT INTO inbox (platform, message_key, session_key, payload, status, accepted_at, updated_at)
           VALUES ('cron', $1, $2, $3, 'done', $4, $4) ON CONFLICT (platform, message_key) DO NOTHING`,
          [key, `cron:${jobId}`, JSON.stringify({ job_id: jobId, slot_time: slot }), at],
        );
        const inbox = await pgRow<{ id: number }>(
          client,
          "SELECT id FROM inbox WHERE platform = 'cron' AND message_key = $1",
          [key],
        );
        if (inbox === undefined) return null;
        if (next.manual) {
          await client.query(
            'UPDATE cron_jobs SET run_requested_at = NULL, last_run_at = $1, updated_at = $1 WHERE id = $2',
            [at, jobId],
          );
        } else {
          // a scheduled fire also answers a pending `hermes cron run`
          await client.query(
            `UPDATE cron_jobs SET next_run_at = $1, state = $2, run_requested_at = NULL, last_run_at = $3, updated_at = $3
             WHERE id = $4`,
            [next.nextRunAt, next.state, at, jobId],
          );
        }
        const fire = await pgRow<{ id: number }>(
          client,
          `INSERT INTO cron_fires (job_id, slot_time, inbox_id, status, started_at) VALUES ($1, $2, $3, 'running', $4)
           ON CONFLICT (job_id, slot_time) DO NOTHING RETURNING id`,
          [jobId, slot, inbox.id, at],
        );
        return fire === undefined ? null : { fireId: fire.id, inboxId: inbox.id };
      }),
    async finishFire(fireId, status, detail = {}) {
      await pool.query(
        'UPDATE cron_fires SET status = $1, answer = COALESCE($2, answer), error = $3, finished_at = $4 WHERE id = $5',
        [status, detail.answer ?? null, detail.error ?? null, now(), fireId],
      );
    },
    async recordResult(jobId, status, error) {
      // a fire cut off by a stop is not the job's fault: its count stays
      const row = await pgRow<{ failures: number }>(
        pool,
        `UPDATE cron_jobs SET last_status = $1, last_error = $2,
           failures = CASE $3::int WHEN 1 THEN failures + 1 WHEN 0 THEN 0 ELSE failures END, updated_at = $4
         WHERE id = $5 RETURNING failures`,
        [status, error, status === 'failed' ? 1 : status === 'interrupted' ? 2 : 0, now(), jobId],
      );
      return row?.failures ?? 0;
    },
    async unfinishedFires() {
      const rows = await pgRows<FireRecord>(
        pool,
        "SELECT * FROM cron_fires WHERE status IN ('running', 'answered') ORDER BY id",
      );
      return rows.map(toFire);
    },
    async fires(jobId, limit = 20) {
      const rows = await pgRows<FireRecord>(
        pool,
        'SELECT * FROM cron_fires WHERE job_id = $1 ORDER BY slot_time DESC, id DESC LIMIT $2',
        [jobId, limit],
      );
      return rows.map(toFire);
    },
  };
}
