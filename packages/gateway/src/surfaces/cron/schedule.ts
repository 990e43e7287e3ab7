/**
 * Job schedules: cron expressions (croner, with time zones), intervals (`every 30m`) and one-shot
 * times (`in 2h`, `in 2 minutes`, an ISO time). Parsing names the accepted forms on a bad one;
 * next-run computation is pure (a time in, a time out), so DST and catch-up are unit-tested.
 */
import { Cron } from 'croner';

export type ParsedSchedule =
  | { kind: 'cron'; expr: string }
  | { kind: 'every'; everyMs: number }
  | { kind: 'once'; at: number };

/** Said with every schedule error. */
export const SCHEDULE_FORMS =
  'accepted: a cron expression ("0 8 * * *", "*/5 * * * *", "@daily"), an interval ("every 30m", "every 2h", ' +
  '"every 1d"), or one time ("in 2h", "in 2 minutes", "2026-12-01T08:00", "2026-12-01T08:00:00Z")';

export class ScheduleError extends Error {
  override name = 'ScheduleError';
}

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const UNITS: Readonly<Record<string, number>> = {
  s: SECOND,
  sec: SECOND,
  secs: SECOND,
  second: SECOND,
  seconds: SECOND,
  m: MINUTE,
  min: MINUTE,
  mins: MINUTE,
  minute: MINUTE,
  minutes: MINUTE,
  h: HOUR,
  hr: HOUR,
  hrs: HOUR,
  hour: HOUR,
  hours: HOUR,
  d: DAY,
  day: DAY,
  days: DAY,
  w: 7 * DAY,
  week: 7 * DAY,
  weeks: 7 * DAY,
};
/** the shortest interval: a job every few seconds would only be a busy loop */
export const MIN_INTERVAL_MS = MINUTE;

const DURATION = /^(\d+)\s*([a-z]+)$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?(?:Z|[+-]\d{2}:?\d{2})?$/i;
const HAS_OFFSET = /(?:Z|[+-]\d{2}:?\d{2})$/i;

/** Throws when `timezone` is not an IANA zone name this runtime knows. */
export function checkTimezone(timezone: string): void {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
  } catch {
    throw new ScheduleError(`unknown time zone "${timezone}": use an IANA name such as "Europe/Berlin" or "UTC"`);
  }
}

/** The machine's time zone (the default of cron.timezone). */
export const machineTimezone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

function duration(text: string, what: string): number {
  const m = DURATION.exec(text.trim());
  const unit = m?.[2] ? UNITS[m[2]] : undefined;
  if (!m || unit === undefined) {
    throw new ScheduleError(
      `"${what}": expected a number and a unit (s, m, h, d, w or their words); ${SCHEDULE_FORMS}`,
    );
  }
  const ms = Number(m[1]) * unit;
  if (!Number.isSafeInteger(ms) || ms <= 0) throw new ScheduleError(`"${what}": the duration must be above zero`);
  return ms;
}

/** Parses a schedule as a user wrote it; `now` anchors `in …`; an ISO time without offset is in `timezone`. */
export function parseSchedule(text: string, options: { timezone: string; now: number }): ParsedSchedule {
  const raw = text.trim();
  const lower = raw.toLowerCase();
  if (raw === '') throw new ScheduleError(`empty schedule; ${SCHEDULE_FORMS}`);
  checkTimezone(options.timezone);
  if (lower.startsWith('every ')) {
    const everyMs = duration(lower.slice(6), raw);
    if (everyMs < MIN_INTERVAL_MS) throw new ScheduleError(`"${raw}": the shortest interval is 1 minute`);
    return { kind: 'every', everyMs };
  }
  if (lower.startsWith('in ')) return { kind: 'once', at: options.now + duration(lower.slice(3), raw) };
  if (ISO_TIME.test(raw)) return { kind: 'once', at: isoTime(raw, options.timezone) };
  const fields = raw.split(/\s+/).length;
  if (raw.startsWith('@') || fields === 5 || fields === 6) {
    try {
      const cron = new Cron(raw, { timezone: options.timezone, paused: true });
      if (cron.nextRun(new Date(options.now)) === null) throw new Error('it never fires');
    } catch (err) {
      throw new ScheduleError(`"${raw}" is not a valid cron expression (${(err as Error).message}); ${SCHEDULE_FORMS}`);
    }
    return { kind: 'cron', expr: raw };
  }
  throw new ScheduleError(`cannot read the schedule "${raw}"; ${SCHEDULE_FORMS}`);
}

function isoTime(raw: string, timezone: string): number {
  const text = raw.replace(' ', 'T');
  let at: number;
  if (HAS_OFFSET.test(text)) at = Date.parse(text);
  else {
    // a wall-clock time in the job's zone: croner resolves it (an ISO pattern fires once)
    const full = text.length === 10 ? `${text}T00:00:00` : text.length === 16 ? `${text}:00` : text;
    try {
      at = new Cron(full, { timezone, paused: true }).nextRun(new Date(0))?.getTime() ?? Number.NaN;
    } catch {
      at = Number.NaN;
    }
  }
  if (Number.isNaN(at)) throw new ScheduleError(`"${raw}" is not a valid time; ${SCHEDULE_FORMS}`);
  return at;
}

/** The parsed form as stored (cron_jobs.expr). */
export function scheduleExpr(schedule: ParsedSchedule): string {
  if (schedule.kind === 'cron') return schedule.expr;
  if (schedule.kind === 'every') return String(schedule.everyMs);
  return new Date(schedule.at).toISOString();
}

/** Back from the stored kind and expr. */
export function storedSchedule(kind: ParsedSchedule['kind'], expr: string): ParsedSchedule {
  if (kind === 'cron') return { kind, expr };
  if (kind === 'every') return { kind, everyMs: Number(expr) };
  return { kind, at: Date.parse(expr) };
}

/**
 * The first slot strictly after `after`: a cron expression's next match in `timezone`; an interval's
 * next multiple from `anchor` (the job's creation); a one-shot time if still ahead, else null.
 */
export function nextRunAfter(schedule: ParsedSchedule, timezone: string, after: number, anchor: number): number | null {
  if (schedule.kind === 'once') return schedule.at > after ? schedule.at : null;
  if (schedule.kind === 'every') {
    const steps = after < anchor ? 0 : Math.floor((after - anchor) / schedule.everyMs);
    return anchor + (steps + 1) * schedule.everyMs;
  }
  const next = new Cron(schedule.expr, { timezone, paused: true }).nextRun(new Date(after));
  return next ? next.getTime() : null;
}

/** The first run of a new job created at `now`. */
export function firstRun(schedule: ParsedSchedule, timezone: string, now: number): number | null {
  return schedule.kind === 'once' ? schedule.at : nextRunAfter(schedule, timezone, now, now);
}

/** How many slots lie in (from, to]: catch-up's count of what was missed. Capped at `cap`. */
export function slotsBetween(
  schedule: ParsedSchedule,
  timezone: string,
  from: number,
  to: number,
  anchor: number,
  cap = 1000,
): number {
  let n = 0;
  let at: number | null = from;
  while (n < cap) {
    at = nextRunAfter(schedule, timezone, at, anchor);
    if (at === null || at > to) break;
    n++;
  }
  return n;
}
