// A scheduler on a real in-memory state.db with a hand-moved clock, a scripted turn and a recorded send.
import { HookBus } from '@hermes/plugins';
import { silentLogger } from '@hermes/protocol';
import { asyncMethods, openStore, type Store } from '@hermes/store';
import { flushImmediates } from '../../../../test/helpers/wait-for.js';
import type { DeliveryTarget } from '../../src/delivery/deliver.js';
import { GatewayEvents } from '../../src/gateway-hooks/gateway-events.js';
import type { CronJobsPort } from '../../src/surfaces/cron/cron-jobs-port.js';
import { type CronTurnResult, type FirePorts, recoverFires, runFire } from '../../src/surfaces/cron/fire.js';
import { addJob, type JobInput } from '../../src/surfaces/cron/jobs.js';
import { type CatchUp, CronScheduler } from '../../src/surfaces/cron/scheduler.js';
import { resolveDeliver } from '../../src/surfaces/cron/targets.js';

export const T0 = Date.parse('2026-11-25T10:00:00Z');
export const MIN = 60_000;
export const HOUR = 60 * MIN;

export interface Harness {
  store: Store;
  clock: { t: number };
  sent: { target: DeliveryTarget; text: string }[];
  events: { type: string; context: Record<string, unknown> }[];
  /** the next turns' results (default: completed "done") */
  turns: CronTurnResult[];
  prompts: string[];
  add(input: Partial<JobInput> & { schedule: string }): Promise<string>;
  scheduler(catchUp?: CatchUp): CronScheduler;
}

/** `asyncJobs`: the scheduler, fires and add see the jobs through Promises (as on PostgreSQL). */
export function harness(
  options: { maxFailures?: number; env?: Record<string, string>; asyncJobs?: boolean } = {},
): Harness {
  const clock = { t: T0 };
  const store = openStore(':memory:', { now: () => clock.t });
  const jobs: CronJobsPort = options.asyncJobs ? asyncMethods(store.cronJobs) : store.cronJobs;
  const sent: Harness['sent'] = [];
  const events: Harness['events'] = [];
  const turns: CronTurnResult[] = [];
  const prompts: string[] = [];
  const gatewayEvents = new GatewayEvents(new HookBus());
  gatewayEvents.on('cron:*', (type, context) => {
    events.push({ type, context: context as Record<string, unknown> });
  });
  const env = { TELEGRAM_HOME_CHANNEL: '-100', ...options.env };
  const ports: FirePorts = {
    jobs,
    runTurn: async (job) => {
      prompts.push(job.prompt);
      return turns.shift() ?? { status: 'completed', text: 'done' };
    },
    send: async (target, text) => {
      sent.push({ target, text });
      return { sent: 1, failed: 0, errors: [] };
    },
    resolve: (deliver) => resolveDeliver({ env, connected: () => ['telegram'] }, deliver),
    events: gatewayEvents,
    logger: silentLogger,
    maxFailures: options.maxFailures ?? 3,
  };
  return {
    store,
    clock,
    sent,
    events,
    turns,
    prompts,
    add: async (input) =>
      (await addJob(jobs, { prompt: 'check', deliver: 'telegram', owner: 'cli', timezone: 'UTC', ...input }, clock.t))
        .id,
    scheduler: (catchUp = 'once') =>
      new CronScheduler({
        jobs,
        clock: { now: () => clock.t, realDelay: () => 3_600_000 }, // never fires by itself: tests poke
        catchUp,
        logger: silentLogger,
        fire: (job, claim, signal) => runFire(ports, job, claim, signal),
        recover: () => recoverFires(ports),
        recheckMs: 3_600_000,
      }),
  };
}

/** Events fire on a later tick (GatewayEvents: setImmediate): let the queued ones land. */
export const settle = () => flushImmediates();
