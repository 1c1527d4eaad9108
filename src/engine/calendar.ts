// Calendar arithmetic in IANA time zones, for the engine: local date-times to instants, and the
// calendar window (day, week starting Sunday, month, quarter, year) an instant falls in. Pure.

export type CalendarPeriod = 'minute' | 'hour' | 'day' | 'week' | 'month' | 'quarter' | 'year';

interface LocalFields {
  year: number;
  month: number; // 1–12
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, format);
  }
  return format;
}

/** The wall-clock fields of `instant` (ms) in `timeZone`. */
export function localFields(instant: number, timeZone: string): LocalFields {
  const fields: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(new Date(instant))) {
    if (part.type !== 'literal') fields[part.type] = Number(part.value);
  }
  return {
    year: fields.year as number,
    month: fields.month as number,
    day: fields.day as number,
    hour: fields.hour as number,
    minute: fields.minute as number,
    second: fields.second as number,
  };
}

/** The zone's offset from UTC at `instant`, in ms (local = UTC + offset). */
export function offsetAt(instant: number, timeZone: string): number {
  const f = localFields(instant, timeZone);
  const asUtc = Date.UTC(f.year, f.month - 1, f.day, f.hour, f.minute, f.second);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** From `start` on, the zone is `offset` ms ahead of UTC (until the next span's start). */
export interface OffsetSpan {
  start: number;
  offset: number;
}

/** Far enough apart that no zone changes its offset twice in between (transitions are months apart). */
const SPAN_STEP = 6 * 3_600_000;

/**
 * The zone's offsets over [from, to): the first span starts at `from`, each next one at the exact
 * instant (ms) the offset changes (a daylight-saving transition). With them, the local calendar
 * day of an instant is arithmetic (localDayNumber), in JavaScript or in SQL.
 */
export function offsetSpans(from: number, to: number, timeZone: string): OffsetSpan[] {
  const spans: OffsetSpan[] = [{ start: from, offset: offsetAt(from, timeZone) }];
  for (let at = from; at < to;) {
    const next = Math.min(at + SPAN_STEP, to);
    const current = (spans[spans.length - 1] as OffsetSpan).offset;
    if (offsetAt(next, timeZone) !== current) {
      // The first millisecond with the new offset, between `at` (the old one) and `next`.
      let before = at;
      let after = next;
      while (after - before > 1) {
        const middle = Math.floor((before + after) / 2);
        if (offsetAt(middle, timeZone) === current) before = middle;
        else after = middle;
      }
      if (after < to) spans.push({ start: after, offset: offsetAt(after, timeZone) });
    }
    at = next;
  }
  return spans;
}

const DAY_MS = 86_400_000;

/** The local calendar day of `instant` as a number of days since 1970-01-01 (local), from the zone's spans over a range holding it. */
export function localDayNumber(instant: number, spans: readonly OffsetSpan[]): number {
  let offset = (spans[0] as OffsetSpan).offset;
  for (const span of spans) if (instant >= span.start) offset = span.offset;
  return Math.floor((instant + offset) / DAY_MS);
}

/** A local day number (localDayNumber) as YYYY-MM-DD. */
export function dayOfNumber(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** YYYY-MM-DD as its day number (localDayNumber). */
export function numberOfDay(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) / DAY_MS;
}

/**
 * The instant of a wall-clock time in `timeZone`. A time skipped by a daylight-saving jump is read
 * with the offset before the jump (so it lands after it, like Temporal's "compatible"); a repeated
 * time takes its first occurrence.
 */
export function instantOf(fields: LocalFields, timeZone: string): number {
  const asUtc = Date.UTC(fields.year, fields.month - 1, fields.day, fields.hour, fields.minute, fields.second);
  const firstGuess = asUtc - offsetAt(asUtc, timeZone);
  const offsetThen = offsetAt(firstGuess, timeZone);
  const candidate = asUtc - offsetThen;
  // Repeated hour: prefer the earlier instant if it shows the same wall-clock time.
  const earlier = asUtc - offsetAt(candidate - 3_600_000, timeZone);
  if (earlier < candidate && offsetAt(earlier, timeZone) === asUtc - earlier) return earlier;
  if (offsetAt(candidate, timeZone) === offsetThen) return candidate;
  // Skipped time: use the offset from before the jump.
  return asUtc - offsetAt(candidate - 3_600_000, timeZone);
}

/** The calendar date of `instant` in `timeZone`, as YYYY-MM-DD. */
export function localDay(instant: number, timeZone: string): string {
  const window = calendarWindow(instant, 'day', timeZone) as { start: number; end: number; day?: string };
  if (window.day === undefined) {
    // Remembered on the (cached) window: most calls ask for today again.
    const f = localFields(window.start, timeZone);
    window.day = `${String(f.year).padStart(4, '0')}-${String(f.month).padStart(2, '0')}-${String(f.day).padStart(2, '0')}`;
  }
  return window.day;
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * The last millisecond a program end date includes: the end of its second, or of its minute when
 * it is written without seconds ('2026-01-31T23:59' includes 23:59:59.999).
 */
export function localDateTimeEndInstant(value: string, timeZone: string): number {
  return localDateTimeToInstant(value, timeZone) + (value.length === 16 ? 59_999 : 999);
}

/** Whether an instant falls between an object's program dates (either may be absent), read in `timeZone`. */
export function withinDates(dates: { startDate?: string | undefined; endDate?: string | undefined }, timeZone: string, instant: number): boolean {
  if (dates.startDate !== undefined && instant < localDateTimeToInstant(dates.startDate, timeZone)) return false;
  return dates.endDate === undefined || instant <= localDateTimeEndInstant(dates.endDate, timeZone);
}

/** A program date ('2026-01-31T23:59:59', local to `timeZone`) as an instant in ms. */
export function localDateTimeToInstant(value: string, timeZone: string): number {
  const match = LOCAL.exec(value);
  if (!match) throw new RangeError(`Not a local date-time: ${value}`);
  const [year, month, day, hour, minute, second] = match.slice(1).map((p) => Number(p ?? 0)) as [number, number, number, number, number, number];
  return instantOf({ year, month, day, hour, minute, second }, timeZone);
}

// Most instants fall in the window the previous call returned ("now", again): remember the last
// window per zone and period, which spares the Intl calls that dominate the cost otherwise.
const lastWindows = new Map<string, { start: number; end: number }>();

/** The start (inclusive) and end (exclusive) instants of the calendar window holding `instant`. */
export function calendarWindow(instant: number, period: CalendarPeriod, timeZone: string): { start: number; end: number } {
  const key = `${timeZone}\u0000${period}`;
  const last = lastWindows.get(key);
  if (last !== undefined && instant >= last.start && instant < last.end) return last;
  const window = computeWindow(instant, period, timeZone);
  if (lastWindows.size > 1000) lastWindows.clear();
  lastWindows.set(key, window);
  return window;
}

function computeWindow(instant: number, period: CalendarPeriod, timeZone: string): { start: number; end: number } {
  const f = localFields(instant, timeZone);
  const at = (year: number, month: number, day: number, hour = 0, minute = 0) => {
    // Normalise overflowing months/days through Date.UTC before reading them back as fields.
    const normal = new Date(Date.UTC(year, month - 1, day, hour, minute));
    return instantOf(
      {
        year: normal.getUTCFullYear(),
        month: normal.getUTCMonth() + 1,
        day: normal.getUTCDate(),
        hour: normal.getUTCHours(),
        minute: normal.getUTCMinutes(),
        second: 0,
      },
      timeZone,
    );
  };
  switch (period) {
    // Minutes and hours are counted back from the instant itself, so that the repeated hour of a
    // daylight-saving change gives each occurrence its own window.
    case 'minute': {
      const start = instant - (((instant % 1000) + 1000) % 1000) - f.second * 1000;
      return { start, end: start + 60_000 };
    }
    case 'hour': {
      const start = instant - (((instant % 1000) + 1000) % 1000) - f.second * 1000 - f.minute * 60_000;
      return { start, end: start + 3_600_000 };
    }
    case 'day':
      return { start: at(f.year, f.month, f.day), end: at(f.year, f.month, f.day + 1) };
    case 'week': {
      const weekday = new Date(Date.UTC(f.year, f.month - 1, f.day)).getUTCDay(); // 0 = Sunday
      return { start: at(f.year, f.month, f.day - weekday), end: at(f.year, f.month, f.day - weekday + 7) };
    }
    case 'month':
      return { start: at(f.year, f.month, 1), end: at(f.year, f.month + 1, 1) };
    case 'quarter': {
      const first = Math.floor((f.month - 1) / 3) * 3 + 1;
      return { start: at(f.year, first, 1), end: at(f.year, first + 3, 1) };
    }
    case 'year':
      return { start: at(f.year, 1, 1), end: at(f.year + 1, 1, 1) };
  }
}
