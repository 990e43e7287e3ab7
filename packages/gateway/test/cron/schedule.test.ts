// Schedules: the accepted forms, errors that name them, next runs (intervals, one-shots, cron
// expressions across DST in a named zone).
import { describe, expect, it } from 'vitest';
import {
  firstRun,
  nextRunAfter,
  parseSchedule,
  SCHEDULE_FORMS,
  ScheduleError,
  scheduleExpr,
  slotsBetween,
  storedSchedule,
} from '../../src/surfaces/cron/schedule.js';

const NOW = Date.parse('2026-11-25T10:00:00Z');
const utc = { timezone: 'UTC', now: NOW };
const MIN = 60_000;

describe('parseSchedule', () => {
  it('reads intervals, one-shots and cron expressions', () => {
    expect(parseSchedule('every 30m', utc)).toEqual({ kind: 'every', everyMs: 30 * MIN });
    expect(parseSchedule('every 2h', utc)).toEqual({ kind: 'every', everyMs: 120 * MIN });
    expect(parseSchedule('Every 1d', utc)).toEqual({ kind: 'every', everyMs: 1440 * MIN });
    expect(parseSchedule('every 5 minutes', utc)).toEqual({ kind: 'every', everyMs: 5 * MIN });
    expect(parseSchedule('in 2h', utc)).toEqual({ kind: 'once', at: NOW + 120 * MIN });
    expect(parseSchedule('in 2 minutes', utc)).toEqual({ kind: 'once', at: NOW + 2 * MIN });
    expect(parseSchedule('2026-12-01T08:00:00Z', utc)).toEqual({
      kind: 'once',
      at: Date.parse('2026-12-01T08:00:00Z'),
    });
    expect(parseSchedule('0 8 * * *', utc)).toEqual({ kind: 'cron', expr: '0 8 * * *' });
    expect(parseSchedule('@daily', utc)).toEqual({ kind: 'cron', expr: '@daily' });
  });

  it('reads an ISO time without offset in the given zone', () => {
    const berlin = parseSchedule('2026-12-01T08:00', { timezone: 'Europe/Berlin', now: NOW });
    expect(berlin).toEqual({ kind: 'once', at: Date.parse('2026-12-01T07:00:00Z') }); // CET = UTC+1
    const summer = parseSchedule('2026-07-01 08:00', { timezone: 'Europe/Berlin', now: NOW });
    expect(summer).toEqual({ kind: 'once', at: Date.parse('2026-07-01T06:00:00Z') }); // CEST = UTC+2
  });

  it('refuses bad schedules naming the accepted forms', () => {
    for (const bad of ['', 'tomorrow-ish', 'every 5 fortnights', 'in soon', '61 * * * *', '2026-13-45T99:00']) {
      expect(() => parseSchedule(bad, utc)).toThrow(ScheduleError);
      expect(() => parseSchedule(bad, utc)).toThrow(SCHEDULE_FORMS);
    }
    expect(() => parseSchedule('every 10s', utc)).toThrow('the shortest interval is 1 minute');
    expect(() => parseSchedule('every 0m', utc)).toThrow('above zero');
    expect(() => parseSchedule('0 8 * * *', { timezone: 'Mars/Olympus', now: NOW })).toThrow('unknown time zone');
  });

  it('stores and reads back every kind', () => {
    for (const text of ['every 45m', 'in 3h', '*/5 * * * *']) {
      const parsed = parseSchedule(text, utc);
      expect(storedSchedule(parsed.kind, scheduleExpr(parsed))).toEqual(parsed);
    }
  });
});

describe('next runs', () => {
  it('intervals step from the anchor, skipping to the first slot after the given time', () => {
    const every = { kind: 'every', everyMs: 30 * MIN } as const;
    expect(firstRun(every, 'UTC', NOW)).toBe(NOW + 30 * MIN);
    expect(nextRunAfter(every, 'UTC', NOW + 30 * MIN, NOW)).toBe(NOW + 60 * MIN);
    expect(nextRunAfter(every, 'UTC', NOW + 95 * MIN, NOW)).toBe(NOW + 120 * MIN);
    expect(slotsBetween(every, 'UTC', NOW, NOW + 95 * MIN, NOW)).toBe(3);
  });

  it('a one-shot has one run, then none', () => {
    const once = { kind: 'once', at: NOW + MIN } as const;
    expect(firstRun(once, 'UTC', NOW)).toBe(NOW + MIN);
    expect(nextRunAfter(once, 'UTC', NOW + MIN, NOW)).toBeNull();
  });

  it('a daily cron job keeps its wall-clock hour across both DST changes in Europe/Berlin', () => {
    const daily = { kind: 'cron', expr: '0 8 * * *' } as const;
    const tz = 'Europe/Berlin';
    // spring forward on 2026-03-29: 08:00 is 07:00Z before and 06:00Z after
    const beforeSpring = nextRunAfter(daily, tz, Date.parse('2026-03-28T07:30:00Z'), 0);
    expect(new Date(beforeSpring ?? 0).toISOString()).toBe('2026-03-29T06:00:00.000Z');
    expect(new Date(nextRunAfter(daily, tz, Date.parse('2026-03-27T12:00:00Z'), 0) ?? 0).toISOString()).toBe(
      '2026-03-28T07:00:00.000Z',
    );
    // fall back on 2026-10-25: 08:00 is 06:00Z before and 07:00Z after
    expect(new Date(nextRunAfter(daily, tz, Date.parse('2026-10-24T12:00:00Z'), 0) ?? 0).toISOString()).toBe(
      '2026-10-25T07:00:00.000Z',
    );
  });

  it('a time skipped by spring-forward runs once that day, a repeated hour at fall-back runs once', () => {
    const tz = 'Europe/Berlin';
    const at0230 = { kind: 'cron', expr: '30 2 * * *' } as const; // 02:30 does not exist on 2026-03-29
    const spring = nextRunAfter(at0230, tz, Date.parse('2026-03-28T12:00:00Z'), 0) ?? 0;
    expect(new Date(spring).toISOString().slice(0, 10)).toBe('2026-03-29');
    expect(nextRunAfter(at0230, tz, spring, 0)).toBeGreaterThan(Date.parse('2026-03-30T00:00:00Z'));
    // 02:30 happens twice on 2026-10-25 (CEST then CET): one run that day
    const fall = Date.parse('2026-10-24T12:00:00Z');
    const runs = slotsBetween(at0230, tz, fall, Date.parse('2026-10-25T23:00:00Z'), 0);
    expect(runs).toBe(1);
  });
});
