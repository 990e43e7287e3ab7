import { randomBytes } from 'node:crypto';
import type { SqliteDatabase } from './sqlite.js';

/** How a schedule was written: a cron expression, an interval, or one time. */
export type CronKind = 'cron' | 'every' | 'once';
/** `done`: a one-shot job that has fired. */
export type CronJobState = 'active' | 'paused' | 'done';
/** `running` → `answered` (answer stored) → `delivered`; or `silent`, `failed`, `interrupted` (cut off by a stop). */
export type CronFireStatus = 'running' | 'answered' | 'delivered' | 'silent' | 'failed' | 'interrupted';

export interface NewCronJob {
  name: string;
  /** the schedule as written (`every 30m`, `0 8 * * *`, `in 2h`) */
  schedule: string;
  kind: CronKind;
  /** the parsed form: the cron expression, the interval in ms, or the ISO time */
  expr: string;
  prompt: string;
  /** the toolsets its turns get; null: the gateway's `agent.toolsets` */
  toolsets: readonly string[] | null;
  /** `none`, `home`, `<platform>` (its home channel) or `<platform>:<chat_id>[:<thread_id>]` */
  deliver: string;
  /** who created it: `cli`, or the chat it was asked for in (`telegram:42`) */
  owner: string;
  /** the user whose model made it (`telegram:111`): its runs are that user's turns; absent: the operator's */
  creator?: string | null;
  /** a file of HERMES_HOME/scripts run before each run (its wake gate may skip the run); null: none */
  script?: string | null;
  /** the job whose latest answer each run is given; null: none */
  contextFrom?: string | null;
  timezone: string;
  nextRunAt: number | null;
  /** when it was added (default: now); an interval's slots count from here */
  createdAt?: number;
}

/** One row of `cron_jobs`; times are milliseconds since the epoch. */
export interface CronJobRow extends Omit<NewCronJob, 'toolsets' | 'createdAt' | 'creator' | 'script' | 'contextFrom'> {
  id: string;
  creator: string | null;
  script: string | null;
  contextFrom: string | null;
  toolsets: string[] | null;
  state: CronJobState;
  /** `hermes cron run`: the running gateway fires the job once at its next check */
  runRequestedAt: number | null;
  lastRunAt: number | null;
  lastStatus: CronFireStatus | null;
  lastError: string | null;
  /** failed fires in a row */
  failures: number;
  createdAt: number;
  updatedAt: number;
}

export interface CronFireRow {
  id: number;
  jobId: string;
  slotTime: number;
  /** the inbox row (platform `cron`) the answer's outbox rows hang on */
  inboxId: number | null;
  status: CronFireStatus;
  answer: string | null;
  error: string | null;
  startedAt: number;
  finishedAt: number | null;
}

/** What `hermes cron edit` changes: each field given is set (null clears script and contextFrom). */
export interface CronJobEdit {
  name?: string;
  prompt?: string;
  deliver?: string;
  toolsets?: readonly string[] | null;
  script?: string | null;
  contextFrom?: string | null;
}

export interface CronJobsRepo {
  add(job: NewCronJob): CronJobRow;
  get(id: string): CronJobRow | undefined;
  /** every job, oldest first; `owner`: only that owner's */
  list(options?: { owner?: string }): CronJobRow[];
  remove(id: string): boolean;
  /** changes the fields `edit` gives; false when the job does not exist */
  update(id: string, edit: CronJobEdit): boolean;
  /** the job's newest fire that has an answer (`context_from`), or undefined */
  latestAnswer(jobId: string): CronFireRow | undefined;
  /** pause / resume (resume gives the next run time); false when the job does not exist */
  setState(id: string, state: CronJobState, nextRunAt?: number | null): boolean;
  /** moves the next run without firing (catch_up none) */
  setNextRun(id: string, nextRunAt: number | null): void;
  /** `hermes cron run`: marks the job to be fired at the scheduler's next check; false when missing */
  requestRun(id: string): boolean;
  /** active jobs whose next run is at or before `now`, or with a run requested */
  due(now: number): CronJobRow[];
  /** the earliest next run of an active job (a requested run counts as `now`); null: none */
  nextDue(now: number): number | null;
  /**
   * Claims the fire of `slotTime` in one transaction: the fire row (unique per job and slot), its
   * inbox row, and the job moved on (`next`). Null when that slot was claimed before.
   */
  claimFire(
    jobId: string,
    slotTime: number,
    next: { nextRunAt: number | null; state: CronJobState; manual: boolean },
  ): { fireId: number; inboxId: number } | null;
  /** records how a fire ended (and the answer to deliver, for `answered`) */
  finishFire(fireId: number, status: CronFireStatus, detail?: { answer?: string; error?: string }): void;
  /** the job's last status; a failure is counted, a success resets the count, an interruption keeps it; returns the count */
  recordResult(jobId: string, status: CronFireStatus, error: string | null): number;
  /** fires left `running` or `answered` by a process that stopped */
  unfinishedFires(): CronFireRow[];
  /** a job's fires, newest first */
  fires(jobId: string, limit?: number): CronFireRow[];
}

export interface JobRecord {
  id: string;
  name: string;
  schedule: string;
  kind: CronKind;
  expr: string;
  prompt: string;
  toolsets: string | null;
  deliver: string;
  owner: string;
  creator: string | null;
  script?: string | null;
  context_from?: string | null;
  timezone: string;
  state: CronJobState;
  next_run_at: number | null;
  run_requested_at: number | null;
  last_run_at: number | null;
  last_status: CronFireStatus | null;
  last_error: string | null;
  failures: number;
  created_at: number;
  updated_at: number;
}

export interface FireRecord {
  id: number;
  job_id: string;
  slot_time: number;
  inbox_id: number | null;
  status: CronFireStatus;
  answer: string | null;
  error: string | null;
  started_at: number;
  finished_at: number | null;
}

export const toJob = (r: JobRecord): CronJobRow => ({
  id: r.id,
  name: r.name,
  schedule: r.schedule,
  kind: r.kind,
  expr: r.expr,
  prompt: r.prompt,
  toolsets: r.toolsets === null ? null : toolsetList(r.toolsets),
  deliver: r.deliver,
  owner: r.owner,
  creator: r.creator ?? null,
  script: r.script ?? null,
  contextFrom: r.context_from ?? null,
  timezone: r.timezone,
  state: r.state,
  nextRunAt: r.next_run_at,
  runRequestedAt: r.run_requested_at,
  lastRunAt: r.last_run_at,
  lastStatus: r.last_status,
  lastError: r.last_error,
  failures: r.failures,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** A stored toolsets list; one that is not a JSON list of strings gives no tools (never all of them). */
function toolsetList(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

export const toFire = (r: FireRecord): CronFireRow => ({
  id: r.id,
  jobId: r.job_id,
  slotTime: r.slot_time,
  inboxId: r.inbox_id,
  status: r.status,
  answer: r.answer,
  error: r.error,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
});

/** The parameters of an edit, one `set_<field>` flag (1: set it) and value per field, for one prepared UPDATE. */
export function editParams(edit: CronJobEdit) {
  const has = (k: keyof CronJobEdit) => (Object.hasOwn(edit, k) && edit[k] !== undefined ? 1 : 0);
  return {
    set_name: has('name'),
    name: edit.name ?? null,
    set_prompt: has('prompt'),
    prompt: edit.prompt ?? null,
    set_deliver: has('deliver'),
    deliver: edit.deliver ?? null,
    set_toolsets: has('toolsets'),
    toolsets: edit.toolsets === undefined || edit.toolsets === null ? null : JSON.stringify(edit.toolsets),
    set_script: has('script'),
    script: edit.script ?? null,
    set_context_from: has('contextFrom'),
    context_from: edit.contextFrom ?? null,
  };
}

/** A new job id: 8 hex characters. */
export const newCronJobId = (): string => randomBytes(4).toString('hex');

/** Builds the repository over `cron_jobs` and `cron_fires`; every statement is prepared here, once. */
export function createCronJobsRepo(db: SqliteDatabase, now: () => number): CronJobsRepo {
  const insert = db.prepare(
    `INSERT INTO cron_jobs (id, name, schedule, kind, expr, prompt, toolsets, deliver, owner, creator, script,
       context_from, timezone, state, next_run_at, created_at, updated_at)
     VALUES (@id, @name, @schedule, @kind, @expr, @prompt, @toolsets, @deliver, @owner, @creator, @script,
       @context_from, @timezone, 'active', @next_run_at, @now, @now)`,
  );
  const select = db.prepare<[string], JobRecord>('SELECT * FROM cron_jobs WHERE id = ?');
  const selectAll = db.prepare<[], JobRecord>('SELECT * FROM cron_jobs ORDER BY created_at, id');
  const selectOwned = db.prepare<[string], JobRecord>(
    'SELECT * FROM cron_jobs WHERE owner = ? ORDER BY created_at, id',
  );
  const remove = db.prepare<[string]>('DELETE FROM cron_jobs WHERE id = ?');
  const update = db.prepare(
    `UPDATE cron_jobs SET
       name = CASE WHEN @set_name = 1 THEN @name ELSE name END,
       prompt = CASE WHEN @set_prompt = 1 THEN @prompt ELSE prompt END,
       deliver = CASE WHEN @set_deliver = 1 THEN @deliver ELSE deliver END,
       toolsets = CASE WHEN @set_toolsets = 1 THEN @toolsets ELSE toolsets END,
       script = CASE WHEN @set_script = 1 THEN @script ELSE script END,
       context_from = CASE WHEN @set_context_from = 1 THEN @context_from ELSE context_from END,
       updated_at = @now
     WHERE id = @id`,
  );
  const latestAnswer = db.prepare<[string], FireRecord>(
    'SELECT * FROM cron_fires WHERE job_id = ? AND answer IS NOT NULL ORDER BY slot_time DESC, id DESC LIMIT 1',
  );
  const setState = db.prepare<[string, number | null, number, string]>(
    'UPDATE cron_jobs SET state = ?, next_run_at = ?, run_requested_at = NULL, updated_at = ? WHERE id = ?',
  );
  const setStateOnly = db.prepare<[string, number, string]>(
    'UPDATE cron_jobs SET state = ?, run_requested_at = NULL, updated_at = ? WHERE id = ?',
  );
  const setNext = db.prepare<[number | null, number, string]>(
    'UPDATE cron_jobs SET next_run_at = ?, updated_at = ? WHERE id = ?',
  );
  const request = db.prepare<[number, number, string]>(
    "UPDATE cron_jobs SET run_requested_at = ?, updated_at = ? WHERE id = ? AND state != 'done'",
  );
  const due = db.prepare<[number], JobRecord>(
    `SELECT * FROM cron_jobs WHERE state = 'active' AND (next_run_at <= ? OR run_requested_at IS NOT NULL)
     ORDER BY COALESCE(run_requested_at, next_run_at), id`,
  );
  const earliest = db.prepare<[], { next: number | null; requested: number }>(
    `SELECT MIN(next_run_at) AS next, COUNT(run_requested_at) AS requested FROM cron_jobs WHERE state = 'active'`,
  );
  const insertInbox = db.prepare<[string, string, string, number, number]>(
    `INSERT OR IGNORE INTO inbox (platform, message_key, session_key, payload, status, accepted_at, updated_at)
     VALUES ('cron', ?, ?, ?, 'done', ?, ?)`,
  );
  const inboxId = db
    .prepare<[string], number>("SELECT id FROM inbox WHERE platform = 'cron' AND message_key = ?")
    .pluck();
  const insertFire = db.prepare<[string, number, number, number]>(
    `INSERT OR IGNORE INTO cron_fires (job_id, slot_time, inbox_id, status, started_at) VALUES (?, ?, ?, 'running', ?)`,
  );
  const moveOn = db.prepare<[number | null, string, number, number, string]>(
    // a scheduled fire also answers a pending `hermes cron run`
    'UPDATE cron_jobs SET next_run_at = ?, state = ?, run_requested_at = NULL, last_run_at = ?, updated_at = ? WHERE id = ?',
  );
  const clearRequest = db.prepare<[number, number, string]>(
    'UPDATE cron_jobs SET run_requested_at = NULL, last_run_at = ?, updated_at = ? WHERE id = ?',
  );
  const finish = db.prepare<[string, string | null, string | null, number, number]>(
    'UPDATE cron_fires SET status = ?, answer = COALESCE(?, answer), error = ?, finished_at = ? WHERE id = ?',
  );
  const result = db.prepare<[string, string | null, number, number, string]>(
    `UPDATE cron_jobs SET last_status = ?, last_error = ?, failures = CASE ? WHEN 1 THEN failures + 1 WHEN 0 THEN 0 ELSE failures END,
       updated_at = ? WHERE id = ?`,
  );
  const failures = db.prepare<[string], number>('SELECT failures FROM cron_jobs WHERE id = ?').pluck();
  const unfinished = db.prepare<[], FireRecord>(
    "SELECT * FROM cron_fires WHERE status IN ('running', 'answered') ORDER BY id",
  );
  const firesOf = db.prepare<[string, number], FireRecord>(
    'SELECT * FROM cron_fires WHERE job_id = ? ORDER BY slot_time DESC, id DESC LIMIT ?',
  );
  const claim = db.transaction(
    (jobId: string, slot: number, next: { nextRunAt: number | null; state: CronJobState; manual: boolean }) => {
      const at = now();
      const key = `${jobId}@${slot}`;
      insertInbox.run(key, `cron:${jobId}`, JSON.stringify({ job_id: jobId, slot_time: slot }), at, at);
      const inbox = inboxId.get(key);
      if (inbox === undefined) return null;
      if (next.manual) clearRequest.run(at, at, jobId);
      else moveOn.run(next.nextRunAt, next.state, at, at, jobId);
      const fire = insertFire.run(jobId, slot, inbox, at);
      return fire.changes === 0 ? null : { fireId: Number(fire.lastInsertRowid), inboxId: inbox };
    },
  );

  return {
    add(job) {
      const id = newCronJobId();
      insert.run({
        id,
        name: job.name,
        schedule: job.schedule,
        kind: job.kind,
        expr: job.expr,
        prompt: job.prompt,
        toolsets: job.toolsets === null ? null : JSON.stringify(job.toolsets),
        deliver: job.deliver,
        owner: job.owner,
        creator: job.creator ?? null,
        script: job.script ?? null,
        context_from: job.contextFrom ?? null,
        timezone: job.timezone,
        next_run_at: job.nextRunAt,
        now: job.createdAt ?? now(),
      });
      const row = select.get(id);
      if (!row) throw new Error(`cron job ${id} was not written`);
      return toJob(row);
    },
    get: (id) => {
      const r = select.get(id);
      return r ? toJob(r) : undefined;
    },
    list: (options = {}) => (options.owner ? selectOwned.all(options.owner) : selectAll.all()).map(toJob),
    remove: (id) => remove.run(id).changes > 0,
    update: (id, edit) => update.run({ ...editParams(edit), now: now(), id }).changes > 0,
    latestAnswer: (jobId) => {
      const r = latestAnswer.get(jobId);
      return r ? toFire(r) : undefined;
    },
    setState: (id, state, nextRunAt) =>
      (nextRunAt === undefined ? setStateOnly.run(state, now(), id) : setState.run(state, nextRunAt, now(), id))
        .changes > 0,
    setNextRun: (id, nextRunAt) => {
      setNext.run(nextRunAt, now(), id);
    },
    requestRun: (id) => {
      const at = now();
      return request.run(at, at, id).changes > 0;
    },
    due: (at) => due.all(at).map(toJob),
    nextDue(at) {
      const r = earliest.get();
      if (!r) return null;
      if (r.requested > 0) return at;
      return r.next;
    },
    claimFire: (jobId, slot, next) => claim.immediate(jobId, slot, next),
    finishFire(fireId, status, detail = {}) {
      finish.run(status, detail.answer ?? null, detail.error ?? null, now(), fireId);
    },
    recordResult(jobId, status, error) {
      // a fire cut off by a stop is not the job's fault: its count stays
      result.run(status, error, status === 'failed' ? 1 : status === 'interrupted' ? 2 : 0, now(), jobId);
      return failures.get(jobId) ?? 0;
    },
    unfinishedFires: () => unfinished.all().map(toFire),
    fires: (jobId, limit = 20) => firesOf.all(jobId, limit).map(toFire),
  };
}
