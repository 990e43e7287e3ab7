export { type CronClock, cronClock, realClock } from './clock.js';
export { CRON_EXCLUDED_TOOLS, type CronService, createCronService, cronInstructions } from './cron-service.js';
export { createCronjobTool } from './cronjob-tool.js';
export { addJob, type JobInput, jobJson, nameFromPrompt, resumeJob } from './jobs.js';
export {
  checkTimezone,
  firstRun,
  MIN_INTERVAL_MS,
  machineTimezone,
  nextRunAfter,
  type ParsedSchedule,
  parseSchedule,
  SCHEDULE_FORMS,
  ScheduleError,
  scheduleExpr,
  slotsBetween,
  storedSchedule,
} from './schedule.js';
export { type CatchUp, CronScheduler, type CronSettings, MAX_CATCH_UP_RUNS, RECHECK_MS } from './scheduler.js';
export { deliverShapeError, resolveDeliver, targetString } from './targets.js';
