// The days of the overview (docs/analytics.md), pure: the last N calendar days of a time zone up to
// today (today included), their first and last instants and the zone's offsets over them, and a
// figure per day laid out on those days, zero where nothing happened.
import { dayOfNumber, localDateTimeToInstant, localDay, numberOfDay, offsetSpans, type OffsetSpan } from '../../engine/calendar.js';

/** The ranges the overview offers, in days. */
export const RANGES = [7, 30, 90] as const;
export type Range = (typeof RANGES)[number];
/** The longest range: the rollup keeps this many days up to today. */
export const MAX_DAYS = 90;

export interface DayWindow {
  /** YYYY-MM-DD, oldest first, today last. */
  days: string[];
  /** The first day's number (localDayNumber in src/engine/calendar.ts): day i is number first + i. */
  first: number;
  /** The first instant of the first day, and the first instant after the last (ms). */
  from: number;
  to: number;
  /** The zone's offsets over [from, to). */
  spans: OffsetSpan[];
}

/** The first instant of a local day (midnight, or the first instant after it when a transition skips it). */
export function startOfDay(day: string, timeZone: string): number {
  return localDateTimeToInstant(`${day}T00:00:00`, timeZone);
}

/** The `count` days up to the one holding `now`, in `timeZone`. */
export function dayWindow(now: number, timeZone: string, count: number): DayWindow {
  const today = numberOfDay(localDay(now, timeZone));
  const first = today - (count - 1);
  const days = Array.from({ length: count }, (_, i) => dayOfNumber(first + i));
  const from = startOfDay(days[0] as string, timeZone);
  const to = startOfDay(dayOfNumber(today + 1), timeZone);
  return { days, first, from, to, spans: offsetSpans(from, to, timeZone) };
}

/** The figures of `byDay` (YYYY-MM-DD → value) on the window's days, 0 where absent. */
export function perDay(days: readonly string[], byDay: ReadonlyMap<string, number> | undefined): number[] {
  return days.map((day) => byDay?.get(day) ?? 0);
}
