// The overview's days (src/modules/analytics/days.ts), pure and table-driven: the last N days of a
// zone up to today, today included, with their first and last instants on daylight-saving days
// (23- and 25-hour days, a day that starts at 01:00), and figures laid out on them with zeros.
import { describe, expect, it } from 'vitest';
import { localDay } from '../../../src/engine/calendar.js';
import { dayWindow, perDay, startOfDay } from '../../../src/modules/analytics/days.js';

const at = (value: string) => Date.parse(value);
const HOUR = 3_600_000;

describe('dayWindow', () => {
  it.each([
    {
      name: 'Los Angeles, a week ending on the day clocks spring forward (23 hours)',
      zone: 'America/Los_Angeles',
      now: '2026-03-08T20:00:00Z',
      count: 7,
      days: ['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06', '2026-03-07', '2026-03-08'],
      from: '2026-03-02T08:00:00Z',
      to: '2026-03-09T07:00:00Z',
      hours: 7 * 24 - 1,
    },
    {
      name: 'Los Angeles, a week holding the day clocks fall back (25 hours)',
      zone: 'America/Los_Angeles',
      now: '2026-11-03T07:59:59Z',
      count: 7,
      days: ['2026-10-27', '2026-10-28', '2026-10-29', '2026-10-30', '2026-10-31', '2026-11-01', '2026-11-02'],
      from: '2026-10-27T07:00:00Z',
      to: '2026-11-03T08:00:00Z',
      hours: 7 * 24 + 1,
    },
    {
      name: 'Sydney: today is already tomorrow in UTC',
      zone: 'Australia/Sydney',
      now: '2026-06-14T20:00:00Z',
      count: 3,
      days: ['2026-06-13', '2026-06-14', '2026-06-15'],
      from: '2026-06-12T14:00:00Z',
      to: '2026-06-15T14:00:00Z',
      hours: 72,
    },
    {
      name: 'Santiago: the day the clock jumps from 24:00 to 01:00 starts at 01:00',
      zone: 'America/Santiago',
      now: '2026-09-06T12:00:00Z',
      count: 2,
      days: ['2026-09-05', '2026-09-06'],
      from: '2026-09-05T04:00:00Z',
      to: '2026-09-07T03:00:00Z',
      hours: 47,
    },
    {
      name: 'Kolkata, the first instant of a day',
      zone: 'Asia/Kolkata',
      now: '2026-01-09T18:30:00Z',
      count: 1,
      days: ['2026-01-10'],
      from: '2026-01-09T18:30:00Z',
      to: '2026-01-10T18:30:00Z',
      hours: 24,
    },
  ])('$name', ({ zone, now, count, days, from, to, hours }) => {
    const window = dayWindow(at(now), zone, count);
    expect(window.days).toEqual(days);
    expect(new Date(window.from).toISOString()).toBe(new Date(at(from)).toISOString());
    expect(new Date(window.to).toISOString()).toBe(new Date(at(to)).toISOString());
    expect((window.to - window.from) / HOUR).toBe(hours);
    // The range holds exactly its days: its first instant is the first day's, the one before it the day before.
    expect(localDay(window.from, zone)).toBe(days[0]);
    expect(localDay(window.from - 1, zone)).not.toBe(days[0]);
    expect(localDay(window.to - 1, zone)).toBe(days.at(-1));
    expect(window.spans[0]?.start).toBe(window.from);
  });

  it('has 90 days, today last', () => {
    const window = dayWindow(at('2026-06-15T16:00:00Z'), 'America/New_York', 90);
    expect(window.days).toHaveLength(90);
    expect(window.days[0]).toBe('2026-03-18');
    expect(window.days.at(-1)).toBe('2026-06-15');
    // Daylight time started on 2026-03-08, before the range: one offset throughout.
    expect(window.spans).toHaveLength(1);
  });

  it('starts a day where its first instant is', () => {
    expect(new Date(startOfDay('2026-03-08', 'America/Los_Angeles')).toISOString()).toBe('2026-03-08T08:00:00.000Z');
    expect(new Date(startOfDay('2026-09-06', 'America/Santiago')).toISOString()).toBe('2026-09-06T04:00:00.000Z');
  });
});

describe('perDay', () => {
  const days = ['2026-06-13', '2026-06-14', '2026-06-15'];
  it.each([
    ['no figures', undefined, [0, 0, 0]],
    ['some days', new Map([['2026-06-14', 4]]), [0, 4, 0]],
    [
      'days outside the range are left out',
      new Map([
        ['2026-06-12', 9],
        ['2026-06-15', -2],
      ]),
      [0, 0, -2],
    ],
  ])('%s', (_name, figures, expected) => {
    expect(perDay(days, figures)).toEqual(expected);
  });
});
