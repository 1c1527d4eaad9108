// A zone's offsets over a range and the local day of an instant as arithmetic (offsetSpans,
// localDayNumber in src/engine/calendar.ts): what the overview groups days by, in JavaScript and in
// SQL. Table-driven over zones with daylight saving in either hemisphere, half-hour and 45-minute
// offsets, a 30-minute daylight shift and a transition at midnight; every answer is checked against
// the calendar's own localDay (Intl), hour by hour and minute by minute around each transition.
import { describe, expect, it } from 'vitest';
import { dayOfNumber, localDay, localDayNumber, numberOfDay, offsetSpans } from '../../src/engine/calendar.js';

const at = (value: string) => Date.parse(value);
const HOUR = 3_600_000;
const MINUTE = 60_000;

const cases: Array<{ zone: string; from: string; to: string; transitions: string[]; offsets: number[] }> = [
  // Spring forward (02:00 PST → 03:00 PDT) and fall back.
  { zone: 'America/Los_Angeles', from: '2026-03-01T00:00:00Z', to: '2026-03-20T00:00:00Z', transitions: ['2026-03-08T10:00:00Z'], offsets: [-8, -7] },
  { zone: 'America/Los_Angeles', from: '2026-10-25T00:00:00Z', to: '2026-11-05T00:00:00Z', transitions: ['2026-11-01T09:00:00Z'], offsets: [-7, -8] },
  {
    zone: 'America/New_York',
    from: '2026-01-01T00:00:00Z',
    to: '2026-12-31T00:00:00Z',
    transitions: ['2026-03-08T07:00:00Z', '2026-11-01T06:00:00Z'],
    offsets: [-5, -4, -5],
  },
  // Southern hemisphere: daylight time ends in April.
  { zone: 'Australia/Sydney', from: '2026-03-20T00:00:00Z', to: '2026-04-20T00:00:00Z', transitions: ['2026-04-04T16:00:00Z'], offsets: [11, 10] },
  // No daylight saving, half an hour off the hour.
  { zone: 'Asia/Kolkata', from: '2026-01-01T00:00:00Z', to: '2026-04-01T00:00:00Z', transitions: [], offsets: [5.5] },
  // 45 minutes off the hour, with daylight saving.
  { zone: 'Pacific/Chatham', from: '2026-03-25T00:00:00Z', to: '2026-04-15T00:00:00Z', transitions: ['2026-04-04T14:00:00Z'], offsets: [13.75, 12.75] },
  // A daylight shift of 30 minutes.
  { zone: 'Australia/Lord_Howe', from: '2026-03-25T00:00:00Z', to: '2026-04-15T00:00:00Z', transitions: ['2026-04-04T15:00:00Z'], offsets: [11, 10.5] },
  // The clock jumps from 24:00 to 01:00: the day starts at 01:00.
  { zone: 'America/Santiago', from: '2026-08-30T00:00:00Z', to: '2026-09-12T00:00:00Z', transitions: ['2026-09-06T04:00:00Z'], offsets: [-4, -3] },
  { zone: 'UTC', from: '2026-01-01T00:00:00Z', to: '2026-04-01T00:00:00Z', transitions: [], offsets: [0] },
];

describe.each(cases)('offsetSpans and localDayNumber in $zone from $from', ({ zone, from, to, transitions, offsets }) => {
  const spans = offsetSpans(at(from), at(to), zone);

  it('finds each transition to the millisecond, with the offset after it', () => {
    expect(spans).toEqual([at(from), ...transitions.map(at)].map((start, i) => ({ start, offset: (offsets[i] as number) * HOUR })));
  });

  it('gives the day localDay gives, every hour of the range and every minute around each transition', () => {
    const instants: number[] = [];
    for (let instant = at(from); instant < at(to); instant += HOUR) instants.push(instant);
    for (const transition of transitions.map(at)) {
      for (let instant = transition - 3 * HOUR; instant <= transition + 3 * HOUR; instant += MINUTE) instants.push(instant, instant - 1);
    }
    const mismatches = instants.filter((instant) => dayOfNumber(localDayNumber(instant, spans)) !== localDay(instant, zone));
    expect(mismatches.map((instant) => new Date(instant).toISOString())).toEqual([]);
  });
});

describe('day numbers', () => {
  it.each([
    ['1970-01-01', 0],
    ['2026-06-15', 20619],
    ['2024-02-29', 19782],
    ['1969-12-31', -1],
  ])('%s is day %i', (day, number) => {
    expect(numberOfDay(day)).toBe(number);
    expect(dayOfNumber(number)).toBe(day);
  });
});
