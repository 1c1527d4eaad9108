// Streaks as a pure function of the counted periods (src/engine/elements/streaks.ts): the period
// an instant falls in across time zones and daylight-saving days, Sunday weeks, when a period ends,
// and the walk (runs, freezes spent and earned, breaks, milestones reached), table-driven.
import { describe, expect, it } from 'vitest';
import {
  countedDay,
  dayNumberOf,
  missedPeriods,
  periodEnd,
  periodLabel,
  periodOfDay,
  runHolding,
  streakRuns,
  streakState,
  type StreakRule,
} from '../../src/engine/elements/streaks.js';
import { numberOfDay } from '../../src/engine/calendar.js';

const at = (value: string) => Date.parse(value);
const day = (value: string) => numberOfDay(value);

describe('the period of an instant', () => {
  const cases: Array<{ instant: string; zone: string; period: 'day' | 'week'; label: string }> = [
    // The same instant is two local days in two zones.
    { instant: '2026-03-08T06:59:59.999Z', zone: 'America/New_York', period: 'day', label: '2026-03-08' },
    { instant: '2026-03-08T04:59:59.999Z', zone: 'America/New_York', period: 'day', label: '2026-03-07' },
    { instant: '2026-03-08T05:00:00.000Z', zone: 'America/New_York', period: 'day', label: '2026-03-08' },
    { instant: '2026-03-08T05:00:00.000Z', zone: 'Asia/Tokyo', period: 'day', label: '2026-03-08' },
    { instant: '2026-03-07T14:59:59.999Z', zone: 'Asia/Tokyo', period: 'day', label: '2026-03-07' },
    { instant: '2026-03-07T15:00:00.000Z', zone: 'Asia/Tokyo', period: 'day', label: '2026-03-08' },
    // The spring-forward day in Los Angeles (23 hours): its last millisecond and the next day's first.
    { instant: '2026-03-09T06:59:59.999Z', zone: 'America/Los_Angeles', period: 'day', label: '2026-03-08' },
    { instant: '2026-03-09T07:00:00.000Z', zone: 'America/Los_Angeles', period: 'day', label: '2026-03-09' },
    // The fall-back day (25 hours): 23:30 local is 07:30Z the next day.
    { instant: '2026-11-02T07:30:00.000Z', zone: 'America/Los_Angeles', period: 'day', label: '2026-11-01' },
    { instant: '2026-11-02T08:00:00.000Z', zone: 'America/Los_Angeles', period: 'day', label: '2026-11-02' },
    // Weeks start Sunday: Saturday 23:59:59.999 local is the previous week, Sunday 00:00 the next.
    { instant: '2026-03-08T07:59:59.999Z', zone: 'America/Los_Angeles', period: 'week', label: '2026-03-01' },
    { instant: '2026-03-08T08:00:00.000Z', zone: 'America/Los_Angeles', period: 'week', label: '2026-03-08' },
    { instant: '2026-03-14T23:00:00.000Z', zone: 'UTC', period: 'week', label: '2026-03-08' },
    { instant: '2026-03-15T00:00:00.000Z', zone: 'UTC', period: 'week', label: '2026-03-15' },
    // Southern hemisphere, the day daylight time ends (Sydney, 2026-04-05 has 25 hours).
    { instant: '2026-04-05T13:59:59.999Z', zone: 'Australia/Sydney', period: 'day', label: '2026-04-05' },
    { instant: '2026-04-05T14:00:00.000Z', zone: 'Australia/Sydney', period: 'day', label: '2026-04-06' },
    // A week across New Year.
    { instant: '2027-01-01T12:00:00.000Z', zone: 'UTC', period: 'week', label: '2026-12-27' },
    { instant: '1970-01-01T00:00:00.000Z', zone: 'UTC', period: 'week', label: '1969-12-28' },
  ];
  it.each(cases)('$instant in $zone is the $period of $label', ({ instant, zone, period, label }) => {
    expect(periodLabel(periodOfDay(dayNumberOf(at(instant), zone), period), period)).toBe(label);
  });
});

describe('the day an action counts in', () => {
  const cases: Array<{ name: string; timestamp: string; now: string; label: string }> = [
    { name: 'its own day', timestamp: '2026-03-10T14:00:00Z', now: '2026-03-10T15:00:00Z', label: '2026-03-10' },
    { name: 'backdated: its own day', timestamp: '2026-03-08T14:00:00Z', now: '2026-03-10T15:00:00Z', label: '2026-03-08' },
    { name: 'ahead of now, the next local day: today', timestamp: '2026-03-11T04:30:00Z', now: '2026-03-11T03:30:00Z', label: '2026-03-10' },
    { name: 'ahead of now, the same local day: today', timestamp: '2026-03-10T20:00:00Z', now: '2026-03-10T15:00:00Z', label: '2026-03-10' },
  ];
  it.each(cases)('$name', ({ timestamp, now, label }) => {
    expect(countedDay(at(timestamp), at(now), 'America/New_York')).toBe(day(label));
  });
});

describe('the end of a period', () => {
  const cases: Array<{ label: string; zone: string; period: 'day' | 'week'; end: string }> = [
    { label: '2026-03-08', zone: 'America/Los_Angeles', period: 'day', end: '2026-03-09T07:00:00.000Z' }, // 23 hours
    { label: '2026-03-07', zone: 'America/Los_Angeles', period: 'day', end: '2026-03-08T08:00:00.000Z' },
    { label: '2026-11-01', zone: 'America/Los_Angeles', period: 'day', end: '2026-11-02T08:00:00.000Z' }, // 25 hours
    { label: '2026-03-01', zone: 'America/Los_Angeles', period: 'week', end: '2026-03-08T08:00:00.000Z' },
    { label: '2026-03-08', zone: 'America/Los_Angeles', period: 'week', end: '2026-03-15T07:00:00.000Z' },
    { label: '2026-03-08', zone: 'Asia/Tokyo', period: 'day', end: '2026-03-08T15:00:00.000Z' },
  ];
  it.each(cases)('the $period of $label in $zone ends at $end', ({ label, zone, period, end }) => {
    const index = periodOfDay(day(label), period);
    expect(new Date(periodEnd(index, period, zone)).toISOString()).toBe(end);
  });
});

const rule = (freezes: Partial<StreakRule['freezes']> = {}, milestones: number[] = []): StreakRule => ({
  period: 'day',
  freezes: { max: 0, initial: 0, ...freezes },
  milestones: milestones.map((length) => ({ length })),
});

describe('streakState', () => {
  const cases: Array<{
    name: string;
    rule: StreakRule;
    periods: number[];
    now: number;
    current: number;
    longest: number;
    freezesLeft: number;
    done: boolean;
  }> = [
    { name: 'nothing counted', rule: rule(), periods: [], now: 10, current: 0, longest: 0, freezesLeft: 0, done: false },
    { name: 'nothing counted, initial freezes', rule: rule({ max: 3, initial: 2 }), periods: [], now: 10, current: 0, longest: 0, freezesLeft: 2, done: false },
    { name: 'today counted', rule: rule(), periods: [8, 9, 10], now: 10, current: 3, longest: 3, freezesLeft: 0, done: true },
    { name: 'today not yet counted: the run is alive', rule: rule(), periods: [8, 9], now: 10, current: 2, longest: 2, freezesLeft: 0, done: false },
    { name: 'yesterday missed, no freeze: broken', rule: rule(), periods: [7, 8], now: 10, current: 0, longest: 2, freezesLeft: 0, done: false },
    {
      name: 'yesterday missed, a freeze covers it',
      rule: rule({ max: 1, initial: 1 }),
      periods: [7, 8],
      now: 10,
      current: 2,
      longest: 2,
      freezesLeft: 0,
      done: false,
    },
    {
      name: 'two missed, one freeze: broken',
      rule: rule({ max: 1, initial: 1 }),
      periods: [6, 7],
      now: 10,
      current: 0,
      longest: 2,
      freezesLeft: 1,
      done: false,
    },
    {
      name: 'a gap bridged inside the run',
      rule: rule({ max: 2, initial: 2 }),
      periods: [1, 2, 4, 5],
      now: 5,
      current: 4,
      longest: 4,
      freezesLeft: 1,
      done: true,
    },
    {
      name: 'a gap too wide starts a new run',
      rule: rule({ max: 1, initial: 1 }),
      periods: [1, 2, 3, 6, 7],
      now: 7,
      current: 2,
      longest: 3,
      freezesLeft: 1,
      done: true,
    },
    // One freeze earned every 3 counted periods, at most 1 held: 1..3 earns one, the gap at 4 spends it.
    {
      name: 'a freeze earned in the run',
      rule: rule({ max: 1, earnEvery: 3 }),
      periods: [1, 2, 3, 5],
      now: 5,
      current: 4,
      longest: 4,
      freezesLeft: 0,
      done: true,
    },
    {
      name: 'earned freezes stop at max',
      rule: rule({ max: 1, earnEvery: 1 }),
      periods: [1, 2, 3, 4],
      now: 6,
      current: 4,
      longest: 4,
      freezesLeft: 0,
      done: false,
    },
    { name: 'without earning, the gap breaks', rule: rule({ max: 1 }), periods: [1, 2, 3, 5], now: 5, current: 1, longest: 3, freezesLeft: 0, done: true },
    { name: 'periods after now are not counted', rule: rule(), periods: [9, 10, 11], now: 10, current: 2, longest: 2, freezesLeft: 0, done: true },
    { name: 'duplicates count once', rule: rule(), periods: [9, 9, 10, 10], now: 10, current: 2, longest: 2, freezesLeft: 0, done: true },
  ];
  it.each(cases)('$name', ({ rule: r, periods, now, current, longest, freezesLeft, done }) => {
    const state = streakState(periods, r, now);
    expect({ current: state.current, longest: state.longest, freezesLeft: state.freezesLeft, done: state.done }).toEqual({
      current,
      longest,
      freezesLeft,
      done,
    });
  });

  it('weeks: consecutive Sunday weeks make a run, a missed week breaks it', () => {
    const weekly: StreakRule = { ...rule(), period: 'week' };
    const weeks = ['2026-03-01', '2026-03-07', '2026-03-08', '2026-03-15'].map((d) => periodOfDay(day(d), 'week'));
    const now = periodOfDay(day('2026-03-21'), 'week');
    expect(streakState(weeks, weekly, now)).toMatchObject({ current: 3, done: true });
    expect(streakState(weeks, weekly, now + 2)).toMatchObject({ current: 0, longest: 3 });
  });
});

describe('milestones and missed periods', () => {
  it('records the period each milestone length was reached, per run', () => {
    const runs = streakRuns([1, 2, 3, 5, 6, 7, 8], rule({}, [2, 3, 4]));
    expect(runs.map((run) => [run.start, run.last, run.length, [...run.reached]])).toEqual([
      [
        1,
        3,
        3,
        [
          [2, 2],
          [3, 3],
        ],
      ],
      [
        5,
        8,
        4,
        [
          [2, 6],
          [3, 7],
          [4, 8],
        ],
      ],
    ]);
    expect(runHolding(runs, 6)?.start).toBe(5);
    expect(runHolding(runs, 4)).toBeUndefined();
  });

  it('a frozen period does not count towards a milestone', () => {
    const [run] = streakRuns([1, 3], rule({ max: 1, initial: 1 }, [2, 3]));
    expect(run).toMatchObject({ start: 1, last: 3, length: 2 });
    expect([...(run?.reached ?? [])]).toEqual([[2, 3]]);
  });

  const cases: Array<{ name: string; periods: number[]; freezes: number; now: number; frozen: number[]; brokenAt: number | undefined }> = [
    { name: 'nothing missed yet', periods: [5], freezes: 2, now: 6, frozen: [], brokenAt: undefined },
    { name: 'one missed, frozen', periods: [5], freezes: 2, now: 7, frozen: [6], brokenAt: undefined },
    { name: 'two missed, both frozen', periods: [5], freezes: 2, now: 8, frozen: [6, 7], brokenAt: undefined },
    { name: 'three missed: broken at the third', periods: [5], freezes: 2, now: 9, frozen: [6, 7], brokenAt: 8 },
    { name: 'no freeze: broken at once', periods: [5], freezes: 0, now: 7, frozen: [], brokenAt: 6 },
  ];
  it.each(cases)('$name', ({ periods, freezes, now, frozen, brokenAt }) => {
    const [run] = streakRuns(periods, rule({ max: freezes, initial: freezes }));
    expect(missedPeriods(run as NonNullable<typeof run>, now)).toEqual({ frozen, brokenAt });
  });
});
