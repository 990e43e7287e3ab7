/**
 * `context_from` at add and edit time: the upstream job must exist, and following each job's
 * `context_from` from it must not lead back to the job being changed (A from B, B from A).
 */
import type { CronJobsPort } from './cron-jobs-port.js';
import { ScheduleError } from './schedule.js';

/** The longest chain walked; longer chains are refused (a chain is read one link per run, so deep ones make no sense). */
export const MAX_CHAIN = 32;

/**
 * Checks that `jobId` (null: a job not yet added) may read `upstream`'s answers; throws a
 * ScheduleError saying why not. Returns the upstream's id.
 */
export async function checkContextFrom(jobs: CronJobsPort, jobId: string | null, upstream: string): Promise<string> {
  const id = upstream.trim();
  if (id === '') throw new ScheduleError('context_from: name a job id (hermes cron list shows them)');
  if (id === jobId) throw new ScheduleError(`context_from: job ${id} cannot read its own answers`);
  const chain = [id];
  let current = await jobs.get(id);
  if (!current) throw new ScheduleError(`context_from: no job "${id}" (hermes cron list shows them)`);
  while (current?.contextFrom) {
    const next = current.contextFrom;
    if (next === jobId || chain.includes(next)) {
      const path = [jobId ?? 'this job', ...chain, next].join(' reads ');
      throw new ScheduleError(`context_from: ${id} would make a cycle: ${path}`);
    }
    chain.push(next);
    if (chain.length > MAX_CHAIN) throw new ScheduleError(`context_from: a chain longer than ${MAX_CHAIN} jobs`);
    current = await jobs.get(next);
  }
  return id;
}
