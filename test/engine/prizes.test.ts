// Leaderboards that close, the pure part: where a board's cursor starts, which window it points
// at (calendar windows in the site time zone, across DST; an allTime board's fixed end), and the
// final ranks and prizes of a window's standings (ties share a rank and its prize).
import { describe, expect, it } from 'vitest';
import { finalStandings, firstCursor, prizeOf, windowAt, type Prize } from '../../src/engine/elements/prizes.js';

const at = (iso: string) => Date.parse(iso);
const span = (w: { start: number; end: number } | undefined) =>
  w === undefined ? undefined : [new Date(w.start).toISOString(), new Date(w.end).toISOString()];

describe('windowAt', () => {
  it.each([
    // period, cursor, zone, expected [start, end]
    ['day', '2026-06-17T16:00:00Z', 'America/New_York', ['2026-06-17T04:00:00.000Z', '2026-06-18T04:00:00.000Z']],
    // The day DST starts in New York is 23 hours long; the one it ends, 25.
    ['day', '2026-03-08T12:00:00Z', 'America/New_York', ['2026-03-08T05:00:00.000Z', '2026-03-09T04:00:00.000Z']],
    ['day', '2026-11-01T12:00:00Z', 'America/New_York', ['2026-11-01T04:00:00.000Z', '2026-11-02T05:00:00.000Z']],
    // Weeks start on Sunday; a cursor at a window's end points at the next window.
    ['week', '2026-06-21T04:00:00Z', 'America/New_York', ['2026-06-21T04:00:00.000Z', '2026-06-28T04:00:00.000Z']],
    ['week', '2026-06-21T03:59:59.999Z', 'America/New_York', ['2026-06-14T04:00:00.000Z', '2026-06-21T04:00:00.000Z']],
    ['month', '2026-02-15T00:00:00Z', 'Asia/Tokyo', ['2026-01-31T15:00:00.000Z', '2026-02-28T15:00:00.000Z']],
    ['quarter', '2026-05-01T00:00:00Z', 'UTC', ['2026-04-01T00:00:00.000Z', '2026-07-01T00:00:00.000Z']],
    ['year', '2026-12-31T23:30:00Z', 'Europe/Berlin', ['2026-12-31T23:00:00.000Z', '2027-12-31T23:00:00.000Z']],
  ] as const)('%s at %s in %s', (period, cursor, zone, expected) => {
    expect(span(windowAt({ period }, at(cursor), zone))).toEqual(expected);
  });

  it('gives an allTime board its one window while the cursor is before its end, and none without an end', () => {
    const endsAt = at('2026-06-19T22:00:00Z');
    expect(span(windowAt({ period: 'allTime', endsAt }, endsAt - 1, 'UTC'))).toEqual(['1970-01-01T00:00:00.000Z', '2026-06-19T22:00:00.000Z']);
    expect(windowAt({ period: 'allTime', endsAt }, endsAt, 'UTC')).toBeUndefined();
    expect(windowAt({ period: 'allTime' }, 0, 'UTC')).toBeUndefined();
  });
});

describe('firstCursor', () => {
  it('starts at the window holding now, so that windows ended before are never closed', () => {
    expect(new Date(firstCursor({ period: 'week' }, at('2026-06-17T16:00:00Z'), 'America/New_York')).toISOString()).toBe('2026-06-14T04:00:00.000Z');
    expect(new Date(firstCursor({ period: 'day' }, at('2026-06-17T03:00:00Z'), 'America/New_York')).toISOString()).toBe('2026-06-16T04:00:00.000Z');
    // An allTime board seen after its end never closes; seen before, it does.
    const endsAt = at('2026-06-19T22:00:00Z');
    expect(windowAt({ period: 'allTime', endsAt }, firstCursor({ period: 'allTime', endsAt }, endsAt + 1, 'UTC'), 'UTC')).toBeUndefined();
    expect(windowAt({ period: 'allTime', endsAt }, firstCursor({ period: 'allTime', endsAt }, endsAt - 1, 'UTC'), 'UTC')).toBeDefined();
  });
});

describe('finalStandings', () => {
  const gold = { points: [{ category: 'Points', amount: 100 }], badge: 'b-gold' };
  const silver = { points: [{ category: 'Points', amount: 10 }] };
  const prizes: Prize[] = [
    { ranks: '1', rewards: gold },
    { ranks: '2-3', rewards: silver },
  ];
  const summary = (rows: Array<[string, number]>, p: Prize[] = prizes) =>
    finalStandings(
      rows.map(([partyId, score]) => ({ partyId, score })),
      p,
    ).map((s) => `${s.rank}:${s.partyId}:${s.prize === gold ? 'gold' : s.prize === silver ? 'silver' : '-'}`);

  it.each([
    [
      'no ties',
      [
        ['a', 5],
        ['b', 4],
        ['c', 3],
        ['d', 2],
      ],
      ['1:a:gold', '2:b:silver', '3:c:silver', '4:d:-'],
    ],
    [
      'a tie for first: both gold, the next is third',
      [
        ['a', 5],
        ['b', 5],
        ['c', 3],
        ['d', 2],
      ],
      ['1:a:gold', '1:b:gold', '3:c:silver', '4:d:-'],
    ],
    [
      'a tie at the last paid rank: all paid',
      [
        ['a', 5],
        ['b', 4],
        ['c', 3],
        ['d', 3],
        ['e', 3],
      ],
      ['1:a:gold', '2:b:silver', '3:c:silver', '3:d:silver', '3:e:silver'],
    ],
    [
      'a tie across a range boundary takes the rank of its first',
      [
        ['a', 5],
        ['b', 5],
        ['c', 5],
        ['d', 1],
      ],
      ['1:a:gold', '1:b:gold', '1:c:gold', '4:d:-'],
    ],
    [
      'zero and negative scores rank too',
      [
        ['a', 0],
        ['b', -1],
      ],
      ['1:a:gold', '2:b:silver'],
    ],
    ['nobody scored', [], []],
  ] as const)('%s', (_, rows, expected) => {
    expect(summary(rows as unknown as Array<[string, number]>)).toEqual(expected);
  });

  it('pays nothing on a board without prizes', () => {
    expect(summary([['a', 1]], [])).toEqual(['1:a:-']);
  });

  it('finds the prize of a rank in a range', () => {
    expect(prizeOf(prizes, 3)).toBe(silver);
    expect(prizeOf(prizes, 4)).toBeUndefined();
  });
});
