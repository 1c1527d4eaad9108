// Streaks (docs/streaks.md): a user's runs of consecutive periods (site-local days, or weeks
// starting Sunday) in which the streak's action was logged or its mission completed. Everything is
// a pure function of the set of counted periods, the freeze rule and the current period: a gap of
// k missed periods inside a run uses k freezes when the run holds that many, else the run breaks.
import { dayOfNumber, localDateTimeToInstant, localDay, numberOfDay } from '../calendar.js';

export type StreakPeriod = 'day' | 'week';

/** What the walk needs of a streak (the program's Streak satisfies it). */
export interface StreakRule {
  period: StreakPeriod;
  freezes: { max: number; initial: number; earnEvery?: number | undefined };
  milestones: ReadonlyArray<{ length: number }>;
}

/** One run: consecutive counted periods, gaps bridged by freezes. */
export interface StreakRun {
  /** The run's first and last counted periods. */
  start: number;
  last: number;
  /** Counted periods in the run (frozen ones do not count). */
  length: number;
  /** Freezes the run holds after its last counted period. */
  freezesLeft: number;
  /** The period at which the run reached each milestone length it reached. */
  reached: Map<number, number>;
}

/** A streak as of a period ("now"). */
export interface StreakState {
  /** Counted periods of the live run; 0 when there is none (never started, or broken). */
  current: number;
  longest: number;
  freezesLeft: number;
  /** The current period already counts. */
  done: boolean;
  /** The live run, if any. */
  run: StreakRun | undefined;
}

/** 1970-01-01 was a Thursday: day 0 is the fifth day of its Sunday week. */
const THURSDAY = 4;

/** The site-local day number (days since 1970-01-01, local) of an instant. */
export function dayNumberOf(instant: number, timeZone: string): number {
  return numberOfDay(localDay(instant, timeZone));
}

/**
 * The site-local day an action (or a completion) of `timestamp` decided at `now` counts in: its
 * own, or today for one dated ahead of now (the API accepts timestamps up to a day ahead), so that
 * it extends the run now and its day, when it comes, still counts anew (docs/streaks.md).
 */
export function countedDay(timestamp: number, now: number, timezone: string): number {
  return Math.min(dayNumberOf(timestamp, timezone), dayNumberOf(now, timezone));
}

/** The period (a day number, or a week number counted from the Sunday week holding 1970-01-01) holding a local day. */
export function periodOfDay(day: number, period: StreakPeriod): number {
  return period === 'day' ? day : Math.floor((day + THURSDAY) / 7);
}

/** The first local day of a period. */
export function firstDayOf(index: number, period: StreakPeriod): number {
  return period === 'day' ? index : index * 7 - THURSDAY;
}

/** The first local day of a period as YYYY-MM-DD. */
export function periodLabel(index: number, period: StreakPeriod): string {
  return dayOfNumber(firstDayOf(index, period));
}

/** The instant the period ends (the next one's local midnight; daylight-saving days are 23 or 25 hours). */
export function periodEnd(index: number, period: StreakPeriod, timeZone: string): number {
  return localDateTimeToInstant(`${dayOfNumber(firstDayOf(index + 1, period))}T00:00:00`, timeZone);
}

/**
 * The runs of a set of counted periods, oldest first (`periods` ascending, duplicates allowed).
 * Linear in the periods: at most one per day, so a daily streak's walk reads 366 a year.
 */
export function streakRuns(periods: readonly number[], rule: StreakRule): StreakRun[] {
  const { max, initial, earnEvery } = rule.freezes;
  const lengths = rule.milestones.map((m) => m.length);
  const runs: StreakRun[] = [];
  let run: StreakRun | undefined;
  for (const p of periods) {
    if (run !== undefined && p <= run.last) continue;
    if (run !== undefined && p - run.last - 1 <= run.freezesLeft) {
      run.freezesLeft -= p - run.last - 1;
      run.last = p;
      run.length += 1;
    } else {
      run = { start: p, last: p, length: 1, freezesLeft: Math.min(initial, max), reached: new Map() };
      runs.push(run);
    }
    if (earnEvery !== undefined && run.length % earnEvery === 0) run.freezesLeft = Math.min(max, run.freezesLeft + 1);
    if (lengths.includes(run.length)) run.reached.set(run.length, p);
  }
  return runs;
}

/** The streak as of the period `now` (counted periods after it are not looked at). */
export function streakState(periods: readonly number[], rule: StreakRule, now: number): StreakState {
  const runs = streakRuns(
    periods.filter((p) => p <= now),
    rule,
  );
  const longest = runs.reduce((most, run) => Math.max(most, run.length), 0);
  const run = runs[runs.length - 1];
  const fresh = Math.min(rule.freezes.initial, rule.freezes.max);
  if (run === undefined) return { current: 0, longest, freezesLeft: fresh, done: false, run: undefined };
  const missed = Math.max(0, now - run.last - 1);
  if (missed > run.freezesLeft) return { current: 0, longest, freezesLeft: fresh, done: false, run: undefined };
  return { current: run.length, longest, freezesLeft: run.freezesLeft - missed, done: run.last === now, run };
}

/**
 * What the periods missed after a run's last one did to it by the period `now` (not itself
 * missed yet): the periods a freeze covered, and the period that broke the run (when it did).
 */
export function missedPeriods(run: StreakRun, now: number): { frozen: number[]; brokenAt: number | undefined } {
  const frozen: number[] = [];
  for (let p = run.last + 1; p < now; p++) {
    if (frozen.length >= run.freezesLeft) return { frozen, brokenAt: p };
    frozen.push(p);
  }
  return { frozen, brokenAt: undefined };
}

/** The run holding the counted period `p`. */
export function runHolding(runs: readonly StreakRun[], p: number): StreakRun | undefined {
  return runs.find((run) => run.start <= p && p <= run.last);
}
