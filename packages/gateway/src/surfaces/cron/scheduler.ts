/**
 * The scheduler of `hermes gateway run`: one timer to the next due job (never shorter polling than
 * that), re-armed every `recheckMs` so jobs the CLI added, paused or asked to run are seen; each due
 * slot claimed in a transaction (cron_fires is unique per job and slot) before its fire runs, so a
 * slot runs once across restarts. Missed slots after downtime follow `cron.catch_up`. The jobs
 * repository may answer synchronously (SQLite) or asynchronously (PostgreSQL): one tick runs at a
 * time, and a poke during a tick runs another right after it.
 */

import type { Logger } from '@hermes/protocol';
import type { CronJobRow } from '@hermes/store';
import type { CronClock } from './clock.js';
import type { CronJobsPort } from './cron-jobs-port.js';
import type { Claim } from './fire.js';
import { nextRunAfter, slotsBetween, storedSchedule } from './schedule.js';

export type CatchUp = 'once' | 'all' | 'none';

export interface CronSettings {
  /** cron.timezone: the zone of jobs added without --tz (default: the machine's) */
  timezone: string;
  /** cron.catch_up: after downtime, run a missed job once (default), every missed slot, or none */
  catchUp: CatchUp;
  /** cron.max_failures: failed runs in a row before a job is paused and its owner told */
  maxFailures: number;
}

export interface SchedulerDeps {
  jobs: CronJobsPort;
  clock: CronClock;
  catchUp: CatchUp;
  logger: Logger;
  /** runs a claimed fire to its end (never rejects) */
  fire(job: CronJobRow, claim: Claim, signal: AbortSignal): Promise<void>;
  /** at start: fires a stopped process left behind (answered, not yet delivered, are sent) */
  recover(): Promise<void>;
  /** how often the table is re-read for changes made by the CLI (default 2 s, real time) */
  recheckMs?: number;
}

export const RECHECK_MS = 2_000;
/** catch_up all: at most this many missed slots run (the latest) */
export const MAX_CATCH_UP_RUNS = 24;

export class CronScheduler {
  readonly #deps: SchedulerDeps;
  readonly #running = new Map<string, Promise<void>>();
  readonly #abort = new AbortController();
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;
  #started = false;
  /** the tick running now (one at a time) */
  #ticking: Promise<void> | null = null;
  /** a poke or timer came during the tick: tick again when it ends */
  #again = false;

  constructor(deps: SchedulerDeps) {
    this.#deps = deps;
  }

  /** Recovers unfinished fires, applies catch-up to what was missed while stopped, and arms the timer. */
  async start(): Promise<void> {
    if (this.#started) return;
    this.#started = true;
    await this.#deps.recover();
    await this.#catchUp();
    await this.#runTick();
    const { jobs, clock, logger } = this.#deps;
    const next = await jobs.nextDue(clock.now());
    const active = (await jobs.list()).filter((j) => j.state === 'active').length;
    logger.info(
      { jobs: active, nextRunAt: next === null ? null : new Date(next).toISOString() },
      `cron scheduler started: ${active} active job(s)`,
    );
  }

  /** Re-reads the table now (a job was added or changed in this process). */
  poke(): void {
    if (this.#started && !this.#stopped) void this.#runTick();
  }

  /** Stops firing; running fires get up to `drainMs`, then are cut off (their slot is not run again). */
  async stop(drainMs = 0): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    const all = Promise.all(this.#running.values());
    await Promise.race([all, new Promise<void>((r) => setTimeout(r, drainMs).unref())]);
    this.#abort.abort(new Error('gateway stopping'));
    await Promise.race([all, new Promise<void>((r) => setTimeout(r, 2_000).unref())]);
  }

  /** Resolves when no fire is running (tests). */
  async idle(): Promise<void> {
    while (this.#ticking !== null || this.#running.size > 0) {
      if (this.#ticking !== null) await this.#ticking;
      await Promise.all(this.#running.values());
    }
  }

  async #catchUp(): Promise<void> {
    const { jobs, clock } = this.#deps;
    const now = clock.now();
    for (const job of await jobs.due(now)) {
      if (job.nextRunAt === null || job.nextRunAt > now) continue; // only a requested run
      try {
        await this.#catchUpJob(job, now);
      } catch (err) {
        await this.#unschedulable(job, err);
      }
    }
  }

  async #catchUpJob(job: CronJobRow, now: number): Promise<void> {
    const { jobs, catchUp, logger } = this.#deps;
    const schedule = storedSchedule(job.kind, job.expr);
    // a one-shot whose time passed runs once, whatever the policy
    if (schedule.kind === 'once' || job.nextRunAt === null) return;
    const missed = 1 + slotsBetween(schedule, job.timezone, job.nextRunAt, now, job.createdAt);
    if (catchUp === 'none') {
      await jobs.setNextRun(job.id, nextRunAfter(schedule, job.timezone, now, job.createdAt));
      logger.info({ cronJob: job.id, missed }, `cron job ${job.id}: ${missed} missed run(s) skipped (catch_up none)`);
    } else if (catchUp === 'all' && missed > MAX_CATCH_UP_RUNS) {
      // a week down with `every 1m` is 10 080 slots: only the latest ones run
      let from = job.nextRunAt;
      for (let i = 0; i < missed - MAX_CATCH_UP_RUNS; i++) {
        from = nextRunAfter(schedule, job.timezone, from, job.createdAt) ?? from;
      }
      await jobs.setNextRun(job.id, from);
      logger.info(
        { cronJob: job.id, missed },
        `cron job ${job.id}: ${missed} missed run(s); running the latest ${MAX_CATCH_UP_RUNS}`,
      );
    } else {
      const runs = catchUp === 'all' ? `${missed} run(s)` : 'once';
      logger.info({ cronJob: job.id, missed }, `cron job ${job.id}: ${missed} missed run(s); running ${runs}`);
    }
  }

  /** Runs a tick, or (one is running) asks for another after it; resolves when the ticks end. */
  #runTick(): Promise<void> {
    if (this.#ticking !== null) {
      this.#again = true;
      return this.#ticking;
    }
    const run = async () => {
      do {
        this.#again = false;
        await this.#tick();
      } while (this.#again && !this.#stopped);
    };
    this.#ticking = run().finally(() => {
      this.#ticking = null;
    });
    return this.#ticking;
  }

  async #tick(): Promise<void> {
    clearTimeout(this.#timer);
    if (this.#stopped) return;
    const { jobs, clock, logger } = this.#deps;
    let busy = false;
    try {
      for (const job of await jobs.due(clock.now())) {
        if (this.#running.has(job.id)) {
          busy = true; // its previous fire still runs: this slot waits for it
          continue;
        }
        try {
          await this.#claimAndRun(job);
        } catch (err) {
          await this.#unschedulable(job, err);
        }
      }
    } catch (err) {
      logger.error({ err }, 'cron: reading the due jobs failed; trying again shortly');
      busy = true;
    }
    await this.#arm(busy);
  }

  /** A row the scheduler cannot read (edited by hand, say): paused with the reason, the others go on. */
  async #unschedulable(job: CronJobRow, err: unknown): Promise<void> {
    const reason = `cannot schedule: ${err instanceof Error ? err.message : String(err)}`;
    this.#deps.logger.error({ cronJob: job.id }, `cron job ${job.id} paused: ${reason}`);
    try {
      await this.#deps.jobs.setState(job.id, 'paused');
      await this.#deps.jobs.recordResult(job.id, 'failed', reason);
    } catch (e) {
      this.#deps.logger.error({ err: e, cronJob: job.id }, 'cron: pausing an unschedulable job failed');
    }
  }

  async #claimAndRun(job: CronJobRow): Promise<void> {
    const { jobs, clock, catchUp } = this.#deps;
    const now = clock.now();
    const manual = job.runRequestedAt !== null && (job.nextRunAt === null || job.nextRunAt > now);
    const slotTime = manual ? (job.runRequestedAt as number) : (job.nextRunAt as number);
    const schedule = storedSchedule(job.kind, job.expr);
    let next = { nextRunAt: job.nextRunAt, state: job.state, manual };
    if (!manual) {
      const after = catchUp === 'all' ? slotTime : Math.max(slotTime, now);
      const nextRunAt = nextRunAfter(schedule, job.timezone, after, job.createdAt);
      next = { nextRunAt, state: nextRunAt === null ? 'done' : 'active', manual };
    }
    const claimed = await jobs.claimFire(job.id, slotTime, next);
    if (!claimed) return; // that slot already ran (or another process claimed it)
    const run = this.#deps
      .fire(job, { ...claimed, slotTime }, this.#abort.signal)
      .catch((err: unknown) => this.#deps.logger.error({ err, cronJob: job.id }, 'cron fire failed'))
      .finally(() => {
        this.#running.delete(job.id);
        this.poke();
      });
    this.#running.set(job.id, run);
  }

  async #arm(busy: boolean): Promise<void> {
    const { jobs, clock } = this.#deps;
    const recheck = this.#deps.recheckMs ?? RECHECK_MS;
    let wait = recheck;
    if (!busy) {
      const now = clock.now();
      let next: number | null = null;
      try {
        next = await jobs.nextDue(now);
      } catch (err) {
        this.#deps.logger.error({ err }, 'cron: reading the next due job failed; trying again shortly');
      }
      if (next !== null) wait = Math.min(recheck, Math.max(0, clock.realDelay(next - now)));
    }
    if (this.#stopped) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#runTick(), wait);
    this.#timer.unref();
  }
}
