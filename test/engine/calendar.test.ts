// Calendar arithmetic of the rule engine (SPEC §4 repeat windows, §5 rate-limit and cap windows):
// local date-times read in IANA zones (DST gaps and repeated hours included) and the calendar
// window (minute … year, weeks starting Sunday) that holds an instant. Pure, table-driven.
import { describe, expect, it } from 'vitest';
import { calendarWindow, localDateTimeToInstant, type CalendarPeriod } from '../../src/engine/calendar.js';

const LA = 'America/Los_Angeles';
const NY = 'America/New_York';
const PARIS = 'Europe/Paris';
const KOLKATA = 'Asia/Kolkata';
const LORD_HOWE = 'Australia/Lord_Howe';
const UTC = 'UTC';

const iso = (instant: number) => new Date(instant).toISOString();
const at = (value: string) => Date.parse(value);

describe('localDateTimeToInstant', () => {
  const cases: Array<{ name: string; zone: string; local: string; expected: string }> = [
    { name: 'UTC is the identity', zone: UTC, local: '2026-06-15T12:00:00', expected: '2026-06-15T12:00:00.000Z' },
    { name: 'seconds are optional', zone: UTC, local: '2026-06-15T12:00', expected: '2026-06-15T12:00:00.000Z' },
    { name: 'Los Angeles in winter (PST, −8)', zone: LA, local: '2026-01-15T09:00:00', expected: '2026-01-15T17:00:00.000Z' },
    { name: 'Los Angeles in summer (PDT, −7)', zone: LA, local: '2026-07-04T09:00:00', expected: '2026-07-04T16:00:00.000Z' },
    { name: 'Los Angeles, local day before the UTC day', zone: LA, local: '2026-12-31T23:59:59', expected: '2027-01-01T07:59:59.000Z' },
    {
      name: 'Los Angeles DST gap: 02:30 does not exist, read with the offset before the jump',
      zone: LA,
      local: '2026-03-08T02:30',
      expected: '2026-03-08T10:30:00.000Z',
    },
    { name: 'Los Angeles, just before the gap', zone: LA, local: '2026-03-08T01:59:59', expected: '2026-03-08T09:59:59.000Z' },
    { name: 'Los Angeles, just after the gap', zone: LA, local: '2026-03-08T03:00:00', expected: '2026-03-08T10:00:00.000Z' },
    { name: 'Los Angeles repeated hour: first occurrence (PDT)', zone: LA, local: '2026-11-01T01:30', expected: '2026-11-01T08:30:00.000Z' },
    { name: 'Los Angeles, after the repeated hour (PST)', zone: LA, local: '2026-11-01T02:30', expected: '2026-11-01T10:30:00.000Z' },
    { name: 'New York in winter (EST, −5)', zone: NY, local: '2026-01-01T00:00:00', expected: '2026-01-01T05:00:00.000Z' },
    { name: 'New York DST gap', zone: NY, local: '2026-03-08T02:30:00', expected: '2026-03-08T07:30:00.000Z' },
    { name: 'New York repeated hour: first occurrence (EDT)', zone: NY, local: '2026-11-01T01:30:00', expected: '2026-11-01T05:30:00.000Z' },
    { name: 'Paris in winter (CET, +1)', zone: PARIS, local: '2026-12-31T23:59:59', expected: '2026-12-31T22:59:59.000Z' },
    { name: 'Paris in summer (CEST, +2)', zone: PARIS, local: '2026-07-01T00:00:00', expected: '2026-06-30T22:00:00.000Z' },
    { name: 'Paris DST gap', zone: PARIS, local: '2026-03-29T02:30:00', expected: '2026-03-29T01:30:00.000Z' },
    { name: 'Paris repeated hour: first occurrence (CEST)', zone: PARIS, local: '2026-10-25T02:30:00', expected: '2026-10-25T00:30:00.000Z' },
    { name: 'Kolkata (+5:30, no DST), local day after the UTC day', zone: KOLKATA, local: '2026-03-08T02:30:00', expected: '2026-03-07T21:00:00.000Z' },
    { name: 'Kolkata new year', zone: KOLKATA, local: '2027-01-01T00:00:00', expected: '2026-12-31T18:30:00.000Z' },
    { name: 'Lord Howe in winter (+10:30)', zone: LORD_HOWE, local: '2026-07-01T12:00:00', expected: '2026-07-01T01:30:00.000Z' },
    { name: 'Lord Howe 30-minute DST gap', zone: LORD_HOWE, local: '2026-10-04T02:15:00', expected: '2026-10-03T15:45:00.000Z' },
    { name: 'Lord Howe 30-minute repeated span: first occurrence (+11)', zone: LORD_HOWE, local: '2026-04-05T01:45:00', expected: '2026-04-04T14:45:00.000Z' },
  ];

  it.each(cases)('$name: $local in $zone → $expected', ({ zone, local, expected }) => {
    expect(iso(localDateTimeToInstant(local, zone))).toBe(expected);
  });

  it.each(['2026-01-01', '2026-01-01 10:00:00', '2026-01-01T10', '2026-01-01T10:00:00Z', '2026-01-01T10:00:00.000', ''])('rejects %j', (value) => {
    expect(() => localDateTimeToInstant(value, UTC)).toThrow(RangeError);
  });
});

describe('calendarWindow', () => {
  const cases: Array<{ name: string; zone: string; period: CalendarPeriod; instant: string; start: string; end: string; hours?: number }> = [
    // minute and hour
    {
      name: 'UTC minute',
      zone: UTC,
      period: 'minute',
      instant: '2026-05-05T10:20:30.250Z',
      start: '2026-05-05T10:20:00.000Z',
      end: '2026-05-05T10:21:00.000Z',
    },
    {
      name: 'minute at the end of an hour rolls the hour',
      zone: LA,
      period: 'minute',
      instant: '2026-05-05T10:59:59.999Z',
      start: '2026-05-05T10:59:00.000Z',
      end: '2026-05-05T11:00:00.000Z',
    },
    {
      name: 'Los Angeles minute, first occurrence of the repeated hour',
      zone: LA,
      period: 'minute',
      instant: '2026-11-01T08:30:30Z',
      start: '2026-11-01T08:30:00.000Z',
      end: '2026-11-01T08:31:00.000Z',
    },
    // The wall clock shows 01:30:30 again an hour later: the window must still hold the instant.
    {
      name: 'Los Angeles minute, second occurrence of the repeated hour',
      zone: LA,
      period: 'minute',
      instant: '2026-11-01T09:30:30Z',
      start: '2026-11-01T09:30:00.000Z',
      end: '2026-11-01T09:31:00.000Z',
    },
    { name: 'UTC hour', zone: UTC, period: 'hour', instant: '2026-05-05T10:20:30Z', start: '2026-05-05T10:00:00.000Z', end: '2026-05-05T11:00:00.000Z' },
    {
      name: 'Kolkata hour starts at half past in UTC',
      zone: KOLKATA,
      period: 'hour',
      instant: '2026-05-05T10:20:00Z',
      start: '2026-05-05T09:30:00.000Z',
      end: '2026-05-05T10:30:00.000Z',
    },
    {
      name: 'Los Angeles hour before the DST gap ends at 03:00 PDT',
      zone: LA,
      period: 'hour',
      instant: '2026-03-08T09:59:00Z',
      start: '2026-03-08T09:00:00.000Z',
      end: '2026-03-08T10:00:00.000Z',
    },
    {
      name: 'Los Angeles hour after the DST gap',
      zone: LA,
      period: 'hour',
      instant: '2026-03-08T10:15:00Z',
      start: '2026-03-08T10:00:00.000Z',
      end: '2026-03-08T11:00:00.000Z',
    },
    // day: 23 and 25 hours on DST days
    {
      name: 'UTC day',
      zone: UTC,
      period: 'day',
      instant: '2026-05-05T23:59:59.999Z',
      start: '2026-05-05T00:00:00.000Z',
      end: '2026-05-06T00:00:00.000Z',
      hours: 24,
    },
    {
      name: 'Los Angeles ordinary day',
      zone: LA,
      period: 'day',
      instant: '2026-06-16T06:59:59Z',
      start: '2026-06-15T07:00:00.000Z',
      end: '2026-06-16T07:00:00.000Z',
      hours: 24,
    },
    {
      name: 'Los Angeles spring-forward day is 23 hours',
      zone: LA,
      period: 'day',
      instant: '2026-03-08T20:00:00Z',
      start: '2026-03-08T08:00:00.000Z',
      end: '2026-03-09T07:00:00.000Z',
      hours: 23,
    },
    {
      name: 'Los Angeles fall-back day is 25 hours',
      zone: LA,
      period: 'day',
      instant: '2026-11-01T20:00:00Z',
      start: '2026-11-01T07:00:00.000Z',
      end: '2026-11-02T08:00:00.000Z',
      hours: 25,
    },
    {
      name: 'New York spring-forward day is 23 hours',
      zone: NY,
      period: 'day',
      instant: '2026-03-08T12:00:00Z',
      start: '2026-03-08T05:00:00.000Z',
      end: '2026-03-09T04:00:00.000Z',
      hours: 23,
    },
    {
      name: 'Paris spring-forward day is 23 hours',
      zone: PARIS,
      period: 'day',
      instant: '2026-03-29T12:00:00Z',
      start: '2026-03-28T23:00:00.000Z',
      end: '2026-03-29T22:00:00.000Z',
      hours: 23,
    },
    {
      name: 'Paris fall-back day is 25 hours',
      zone: PARIS,
      period: 'day',
      instant: '2026-10-25T12:00:00Z',
      start: '2026-10-24T22:00:00.000Z',
      end: '2026-10-25T23:00:00.000Z',
      hours: 25,
    },
    {
      name: 'Kolkata day that is already tomorrow in the zone',
      zone: KOLKATA,
      period: 'day',
      instant: '2026-05-05T20:00:00Z',
      start: '2026-05-05T18:30:00.000Z',
      end: '2026-05-06T18:30:00.000Z',
      hours: 24,
    },
    {
      name: 'Lord Howe fall-back day is 24.5 hours',
      zone: LORD_HOWE,
      period: 'day',
      instant: '2026-04-05T05:00:00Z',
      start: '2026-04-04T13:00:00.000Z',
      end: '2026-04-05T13:30:00.000Z',
      hours: 24.5,
    },
    {
      name: 'Lord Howe spring-forward day is 23.5 hours',
      zone: LORD_HOWE,
      period: 'day',
      instant: '2026-10-04T05:00:00Z',
      start: '2026-10-03T13:30:00.000Z',
      end: '2026-10-04T13:00:00.000Z',
      hours: 23.5,
    },
    // weeks start on Sunday
    {
      name: 'Saturday 23:30 PDT belongs to the week that started the previous Sunday (across the DST change)',
      zone: LA,
      period: 'week',
      instant: '2026-03-15T06:30:00Z',
      start: '2026-03-08T08:00:00.000Z',
      end: '2026-03-15T07:00:00.000Z',
      hours: 167,
    },
    {
      name: 'Sunday 00:00 local starts a new week',
      zone: LA,
      period: 'week',
      instant: '2026-03-15T07:00:00Z',
      start: '2026-03-15T07:00:00.000Z',
      end: '2026-03-22T07:00:00.000Z',
      hours: 168,
    },
    {
      name: 'UTC Sunday is the first day of its week',
      zone: UTC,
      period: 'week',
      instant: '2026-03-01T00:00:00Z',
      start: '2026-03-01T00:00:00.000Z',
      end: '2026-03-08T00:00:00.000Z',
      hours: 168,
    },
    {
      name: 'a week across the new year',
      zone: UTC,
      period: 'week',
      instant: '2026-01-01T12:00:00Z',
      start: '2025-12-28T00:00:00.000Z',
      end: '2026-01-04T00:00:00.000Z',
    },
    {
      name: 'Sunday 20:00 UTC is already Monday in Kolkata: week of Sunday 14 June local',
      zone: KOLKATA,
      period: 'week',
      instant: '2026-06-14T20:00:00Z',
      start: '2026-06-13T18:30:00.000Z',
      end: '2026-06-20T18:30:00.000Z',
    },
    // month, quarter, year
    {
      name: 'New York: last second of February',
      zone: NY,
      period: 'month',
      instant: '2026-03-01T04:59:59Z',
      start: '2026-02-01T05:00:00.000Z',
      end: '2026-03-01T05:00:00.000Z',
    },
    {
      name: 'New York: first instant of March',
      zone: NY,
      period: 'month',
      instant: '2026-03-01T05:00:00Z',
      start: '2026-03-01T05:00:00.000Z',
      end: '2026-04-01T04:00:00.000Z',
    },
    {
      name: 'Los Angeles December ends at the new year',
      zone: LA,
      period: 'month',
      instant: '2026-12-15T12:00:00Z',
      start: '2026-12-01T08:00:00.000Z',
      end: '2027-01-01T08:00:00.000Z',
    },
    {
      name: 'Paris second quarter',
      zone: PARIS,
      period: 'quarter',
      instant: '2026-05-15T12:00:00Z',
      start: '2026-03-31T22:00:00.000Z',
      end: '2026-06-30T22:00:00.000Z',
    },
    {
      name: 'UTC fourth quarter ends at the new year',
      zone: UTC,
      period: 'quarter',
      instant: '2026-11-11T11:11:11Z',
      start: '2026-10-01T00:00:00.000Z',
      end: '2027-01-01T00:00:00.000Z',
    },
    {
      name: 'Los Angeles first quarter',
      zone: LA,
      period: 'quarter',
      instant: '2026-03-31T12:00:00Z',
      start: '2026-01-01T08:00:00.000Z',
      end: '2026-04-01T07:00:00.000Z',
    },
    {
      name: 'Kolkata: already 2027 in the zone while 2026 in UTC',
      zone: KOLKATA,
      period: 'year',
      instant: '2026-12-31T20:00:00Z',
      start: '2026-12-31T18:30:00.000Z',
      end: '2027-12-31T18:30:00.000Z',
    },
    {
      name: 'UTC: the same instant is still 2026',
      zone: UTC,
      period: 'year',
      instant: '2026-12-31T20:00:00Z',
      start: '2026-01-01T00:00:00.000Z',
      end: '2027-01-01T00:00:00.000Z',
    },
    {
      name: 'Los Angeles: still 2026 locally while 2027 in UTC',
      zone: LA,
      period: 'year',
      instant: '2027-01-01T07:59:59Z',
      start: '2026-01-01T08:00:00.000Z',
      end: '2027-01-01T08:00:00.000Z',
    },
    {
      name: 'Paris: the year starts at local midnight (23:00Z)',
      zone: PARIS,
      period: 'year',
      instant: '2026-12-31T23:30:00Z',
      start: '2026-12-31T23:00:00.000Z',
      end: '2027-12-31T23:00:00.000Z',
    },
  ];

  it.each(cases)('$name ($period, $zone)', ({ zone, period, instant, start, end, hours }) => {
    const window = calendarWindow(at(instant), period, zone);
    expect({ start: iso(window.start), end: iso(window.end) }).toEqual({ start, end });
    expect(window.start).toBeLessThanOrEqual(at(instant));
    expect(window.end).toBeGreaterThan(at(instant));
    if (hours !== undefined) expect((window.end - window.start) / 3_600_000).toBe(hours);
  });

  it('an hour window in the repeated hour holds the instant on both occurrences', () => {
    for (const instant of ['2026-11-01T08:30:00Z', '2026-11-01T09:30:00Z']) {
      const window = calendarWindow(at(instant), 'hour', LA);
      expect(window.start).toBeLessThanOrEqual(at(instant));
      expect(window.end).toBeGreaterThan(at(instant));
    }
  });

  it('every window of every period holds its instant and the next window starts where it ends', () => {
    const periods: CalendarPeriod[] = ['minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'];
    const instants = [
      '2026-03-08T09:59:59Z',
      '2026-03-08T10:00:00Z',
      '2026-11-01T08:59:59Z',
      '2026-11-01T09:00:00Z',
      '2026-12-31T23:59:59.999Z',
      '2027-01-01T00:00:00Z',
    ];
    for (const zone of [LA, NY, PARIS, KOLKATA, LORD_HOWE, UTC]) {
      for (const period of periods) {
        for (const instant of instants) {
          const window = calendarWindow(at(instant), period, zone);
          expect(window.start, `${zone} ${period} ${instant}`).toBeLessThanOrEqual(at(instant));
          expect(window.end, `${zone} ${period} ${instant}`).toBeGreaterThan(at(instant));
          expect(calendarWindow(window.end, period, zone).start, `${zone} ${period} ${instant} next`).toBe(window.end);
        }
      }
    }
  });
});
