/**
 * The cron jobs repository as the scheduler, the fires, the service and the `cronjob` tool use it:
 * the store's `cronJobs`, synchronous on SQLite (`Store`) or async on PostgreSQL (`AsyncStore`).
 * Every call site awaits, so both satisfy it.
 */
import type { MaybePromise } from '@hermes/protocol';
import type { CronJobsRepo } from '@hermes/store';

export type CronJobsPort = {
  readonly [K in keyof CronJobsRepo]: CronJobsRepo[K] extends (...args: infer A) => infer R
    ? (...args: A) => MaybePromise<Awaited<R>>
    : never;
};
