/**
 * `hermes cron edit`: a job's name, prompt, target, toolsets, pre-run script and upstream job
 * changed in place (its schedule, fires and counts stay). Checked as `hermes cron add` checks them.
 */
import type { CronJobEdit, CronJobRow } from '@hermes/store';
import { checkContextFrom } from './context-from.js';
import type { CronJobsPort } from './cron-jobs-port.js';
import { ScheduleError } from './schedule.js';
import { deliverShapeError } from './targets.js';

export interface JobEdit {
  name?: string | undefined;
  prompt?: string | undefined;
  deliver?: string | undefined;
  /** an empty list: back to agent.toolsets */
  toolsets?: readonly string[] | undefined;
  /** a file name of HERMES_HOME/scripts, already checked (script-path.ts); null removes it */
  script?: string | null | undefined;
  /** null: the job reads no other job any more */
  contextFrom?: string | null | undefined;
}

/** Applies `edit` to `job`; throws a ScheduleError naming what is wrong (or that nothing was given). */
export async function editJob(jobs: CronJobsPort, job: CronJobRow, edit: JobEdit): Promise<CronJobRow> {
  const change: CronJobEdit = {};
  if (edit.name !== undefined) {
    if (edit.name.trim() === '') throw new ScheduleError('--name: empty');
    change.name = edit.name.trim();
  }
  if (edit.prompt !== undefined) {
    if (edit.prompt.trim() === '') throw new ScheduleError('the prompt is empty: say what the job should do');
    change.prompt = edit.prompt;
  }
  if (edit.deliver !== undefined) {
    const shape = deliverShapeError(edit.deliver);
    if (shape) throw new ScheduleError(shape);
    change.deliver = edit.deliver;
  }
  if (edit.toolsets !== undefined) {
    const toolsets = edit.toolsets.map((t) => t.trim()).filter((t) => t !== '');
    change.toolsets = toolsets.length > 0 ? toolsets : null;
  }
  if (edit.script !== undefined) change.script = edit.script;
  if (edit.contextFrom !== undefined) {
    change.contextFrom = edit.contextFrom === null ? null : await checkContextFrom(jobs, job.id, edit.contextFrom);
  }
  if (Object.keys(change).length === 0) {
    throw new ScheduleError(
      'nothing to change: give --name, --prompt, --deliver, --toolsets, --script, --no-script, --context-from or --no-context-from',
    );
  }
  if (!(await jobs.update(job.id, change))) throw new ScheduleError(`no cron job "${job.id}"`);
  return (await jobs.get(job.id)) ?? job;
}
