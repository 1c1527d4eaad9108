// Time zone helpers shared by the program model and the engine (pure: no I/O).
import { WINDOWS_ZONES } from './windows-zones.js';

export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

const WINDOWS_ZONES_BY_LOWER_CASE = new Map(Object.entries(WINDOWS_ZONES).map(([windows, iana]) => [windows.toLowerCase(), iana]));

/**
 * The IANA zone to store for a time zone given as input: an IANA name as it is, a Windows name
 * ("Pacific Standard Time", any case) as its IANA zone; undefined for anything else.
 */
export function canonicalTimeZone(timeZone: string): string | undefined {
  if (isValidTimeZone(timeZone)) return timeZone;
  return WINDOWS_ZONES_BY_LOWER_CASE.get(timeZone.toLowerCase());
}

/** Why a time zone is refused (a field error's message). */
export function unknownTimeZone(timeZone: string): string {
  return `unknown time zone "${timeZone}": give an IANA name (America/New_York) or a Windows name (Eastern Standard Time)`;
}

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** True when `value` is a real calendar date-time written as YYYY-MM-DDTHH:mm[:ss]. */
export function isValidLocalDateTime(value: string): boolean {
  const match = LOCAL_DATE_TIME.exec(value);
  if (!match) return false;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  return (
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second
  );
}

/** Local date-times compare correctly as strings once seconds are present. */
export function compareLocalDateTimes(a: string, b: string): number {
  const full = (value: string) => (value.length === 16 ? `${value}:00` : value);
  return full(a) < full(b) ? -1 : full(a) > full(b) ? 1 : 0;
}
