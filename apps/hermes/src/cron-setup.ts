/** The gateway's scheduled jobs from config.yaml's `cron:` (docs/cron.md). */
import { type CronService, createCronService, cronClock, type Gateway, machineTimezone } from '@hermes/gateway';
import type { AgentRuntime } from './runtime.js';

export function cronService(rt: AgentRuntime, gateway: Gateway): CronService {
  const { config } = rt;
  return createCronService({
    gateway,
    jobs: rt.store.cronJobs,
    env: rt.env,
    settings: {
      timezone: config.cron.timezone ?? machineTimezone(),
      catchUp: config.cron.catch_up,
      maxFailures: config.cron.max_failures,
    },
    clock: cronClock(process.env), // HERMES_CRON_CLOCK_*: test-only
    logger: rt.logger.child({ component: 'cron' }),
  });
}
