export { CONTEXT_MAX_CHARS } from './bound-text.js';
export { type CronClock, cronClock, realClock } from './clock.js';
export { checkContextFrom } from './context-from.js';
export { CRON_EXCLUDED_TOOLS, type CronService, createCronService, cronInstructions } from './cron-service.js';
export { createCronjobTool } from './cronjob-tool.js';
export { editJob, type JobEdit } from './job-edit.js';
export { addJob, type JobInput, jobJson, nameFromPrompt, resumeJob } from './jobs.js';
export { approveHint, type CronScripts, PRE_RUN_TIMEOUT_MS, wakeGate } from './pre-run.js';
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
export { readScript, SCRIPT_MAX_BYTES, scriptName, scriptsDir, scriptTrustId } from './script-path.js';
export { deliverShapeError, resolveDeliver, targetString } from './targets.js';
