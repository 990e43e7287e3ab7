/**
 * Adding and resuming jobs, shared by `hermes cron` and the `cronjob` tool: the schedule parsed
 * (errors name the accepted forms), the deliver target checked, the first run computed.
 */
import type { CronJobRow } from '@hermes/store';
import { checkContextFrom } from './context-from.js';
import type { CronJobsPort } from './cron-jobs-port.js';
import {
  checkTimezone,
  firstRun,
  nextRunAfter,
  parseSchedule,
  ScheduleError,
  scheduleExpr,
  storedSchedule,
} from './schedule.js';
import { deliverShapeError } from './targets.js';

export interface JobInput {
  schedule: string;
  prompt: string;
  name?: string | undefined;
  /** `none`, `home`, `<platform>` or `<platform>:<chat_id>[:<thread_id>]` (origin already resolved) */
  deliver: string;
  owner: string;
  /** the user whose model made it (`telegram:111`); its runs are that user's turns */
  creator?: string | undefined;
  toolsets?: readonly string[] | null | undefined;
  /** a pre-run script: a file name of HERMES_HOME/scripts, already checked (script-path.ts `scriptName`) */
  script?: string | null | undefined;
  /** the job whose latest answer each run is given; checked here (it exists, no cycle) */
  contextFrom?: string | null | undefined;
  /** the job's zone (default: cron.timezone) */
  timezone: string;
}

/** A short default name from the prompt. */
export const nameFromPrompt = (prompt: string): string => {
  const line = prompt.trim().split('\n')[0] ?? '';
  return line.length > 40 ? `${line.slice(0, 39)}…` : line;
};

/** Validates and stores a new job; throws a ScheduleError naming what was wrong. */
export async function addJob(jobs: CronJobsPort, input: JobInput, now: number): Promise<CronJobRow> {
  if (input.prompt.trim() === '') throw new ScheduleError('the prompt is empty: say what the job should do');
  checkTimezone(input.timezone);
  const shape = deliverShapeError(input.deliver);
  if (shape) throw new ScheduleError(shape);
  const toolsets = input.toolsets?.map((t) => t.trim()).filter((t) => t !== '') ?? null;
  const schedule = parseSchedule(input.schedule, { timezone: input.timezone, now });
  if (schedule.kind === 'once' && schedule.at <= now) {
    throw new ScheduleError(`"${input.schedule}" is in the past (${new Date(schedule.at).toISOString()})`);
  }
  const contextFrom = input.contextFrom ? await checkContextFrom(jobs, null, input.contextFrom) : null;
  return await jobs.add({
    name: input.name?.trim() || nameFromPrompt(input.prompt),
    schedule: input.schedule.trim(),
    kind: schedule.kind,
    expr: scheduleExpr(schedule),
    prompt: input.prompt,
    toolsets: toolsets && toolsets.length > 0 ? toolsets : null,
    deliver: input.deliver,
    owner: input.owner,
    ...(input.creator === undefined ? {} : { creator: input.creator }),
    script: input.script ?? null,
    contextFrom,
    timezone: input.timezone,
    nextRunAt: firstRun(schedule, input.timezone, now),
    createdAt: now, // the anchor of an interval's slots: the same time its first run was computed from
  });
}

/** Resumes a paused job from `now` (a one-shot whose time passed runs at once); false when it is not paused. */
export async function resumeJob(jobs: CronJobsPort, job: CronJobRow, now: number): Promise<boolean> {
  if (job.state !== 'paused') return false;
  const schedule = storedSchedule(job.kind, job.expr);
  const next = schedule.kind === 'once' ? schedule.at : nextRunAfter(schedule, job.timezone, now, job.createdAt);
  await jobs.setState(job.id, 'active', next);
  return true;
}

/** A job as `--json` and the tool show it. */
export function jobJson(job: CronJobRow) {
  const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
  return {
    id: job.id,
    name: job.name,
    schedule: job.schedule,
    kind: job.kind,
    prompt: job.prompt,
    toolsets: job.toolsets,
    deliver: job.deliver,
    owner: job.owner,
    creator: job.creator,
    script: job.script,
    context_from: job.contextFrom,
    timezone: job.timezone,
    state: job.state,
    next_run_at: iso(job.nextRunAt),
    run_requested: job.runRequestedAt !== null,
    last_run_at: iso(job.lastRunAt),
    last_status: job.lastStatus,
    last_error: job.lastError,
    failures: job.failures,
  };
}
