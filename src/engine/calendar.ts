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
function offsetAt(instant: number, timeZone: string): number {
  const f = localFields(instant, timeZone);
  const asUtc = Date.UTC(f.year, f.month - 1, f.day, f.hour, f.minute, f.second);
  return asUtc - Math.floor(instant / 1000) * 1000;
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
