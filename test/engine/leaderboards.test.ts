// Leaderboard scoring in the pure engine (SPEC §7): which boards a party's changes move and by how
// much (points per category with debits, lifetime credits in the default category, completions,
// action counts and value sums matched case-insensitively, party and group filters, summing and
// cancelling), and in which calendar window of the site's zone (weeks from Sunday; a backdated
// change lands in its own window). Each row is one scoreDeltas call and the deltas it must give.
import { describe, expect, it } from 'vitest';
import {
  leaderboardWindow,
  scoreDeltas,
  type EngineLeaderboard,
  type LeaderboardPeriod,
  type ScoreChange,
  type ScoreDelta,
} from '../../src/engine/elements/leaderboards.js';
import type { Party } from '../../src/engine/types.js';

const NY = 'America/New_York';
const DEFAULT_CATEGORY = 'points';
const at = (value: string) => Date.parse(value);
const iso = (instant: number) => new Date(instant).toISOString();
/** Monday 15 June 2026, 12:00 in New York. */
const NOW = at('2026-06-15T16:00:00Z');

type Metric = EngineLeaderboard['metric'];
const board = (id: string, metric: Metric, overrides: Partial<EngineLeaderboard> = {}): EngineLeaderboard => ({
  id,
  metric,
  period: 'allTime',
  party: 'user',
  ...overrides,
});

const coinsBoard = board('coins', { type: 'points', category: 'coins' });
const lifetime = board('lifetime', { type: 'lifetimePoints' });
const lifetimeCoins = board('lifetime-coins', { type: 'lifetimePoints', category: 'coins' });
const completions = board('completions', { type: 'missionsCompleted' });
const runCount = board('run-count', { type: 'actionCount', action: 'Run' });
const runSum = board('run-sum', { type: 'actionValueSum', action: 'Run' });
const groupCoins = board('group-coins', { type: 'points', category: 'coins' }, { party: 'group' });
const g1Coins = board('g1-coins', { type: 'points', category: 'coins' }, { groupFilter: 'g1' });
const g1GroupCoins = board('g1-group-coins', { type: 'points', category: 'coins' }, { party: 'group', groupFilter: 'g1' });
const dailyCoins = board('daily-coins', { type: 'points', category: 'coins' }, { period: 'day' });
const weeklyCoins = board('weekly-coins', { type: 'points', category: 'coins' }, { period: 'week' });
const quarterlyCoins = board('quarterly-coins', { type: 'points', category: 'coins' }, { period: 'quarter' });

const points = (category: string, amount: number, when = NOW): ScoreChange => ({ kind: 'points', category, amount, at: when });
const completion = (when = NOW): ScoreChange => ({ kind: 'completion', at: when });
const action = (name: string, value: number, when = NOW): ScoreChange => ({ kind: 'action', action: name, value, at: when });
/** An expected delta; windowStart is an ISO instant, or 0 for all-time boards. */
const delta = (boardId: string, amount: number, windowStart: string | 0 = 0, when = NOW): ScoreDelta => ({
  boardId,
  windowStart: windowStart === 0 ? 0 : at(windowStart),
  delta: amount,
  at: when,
});

interface Case {
  name: string;
  boards: EngineLeaderboard[];
  party?: Party; // default 'user'
  groups?: string[]; // default none
  defaultCategory?: string | undefined; // default 'points'
  changes: ScoreChange[];
  expected: ScoreDelta[];
}

const ALL = [coinsBoard, lifetime, lifetimeCoins, completions, runCount, runSum];

const cases: Case[] = [
  { name: 'no changes move nothing', boards: ALL, changes: [], expected: [] },
  { name: 'no boards, nothing to move', boards: [], changes: [points('coins', 10), completion(), action('Run', 3)], expected: [] },
  // points: the board's category only; a debit lowers the score.
  { name: 'points credited in the board’s category', boards: [coinsBoard], changes: [points('coins', 25)], expected: [delta('coins', 25)] },
  { name: 'points in another category do not count', boards: [coinsBoard], changes: [points('points', 25)], expected: [] },
  { name: 'a debit in the category is negative', boards: [coinsBoard], changes: [points('coins', -10)], expected: [delta('coins', -10)] },
  { name: 'the points metric ignores completions and actions', boards: [coinsBoard], changes: [completion(), action('Run', 4)], expected: [] },
  // lifetimePoints: credits only; the default category unless the board names one.
  {
    name: 'lifetime points without a category count default-category credits',
    boards: [lifetime],
    changes: [points('points', 30)],
    expected: [delta('lifetime', 30)],
  },
  { name: 'lifetime points ignore debits', boards: [lifetime], changes: [points('points', -30)], expected: [] },
  {
    name: 'lifetime points count credits and ignore debits among several changes',
    boards: [lifetime],
    changes: [points('points', 30), points('points', -20), points('points', 5)],
    expected: [delta('lifetime', 35)],
  },
  { name: 'lifetime points without a category ignore other categories', boards: [lifetime], changes: [points('coins', 30)], expected: [] },
  {
    name: 'lifetime points follow the site’s default category',
    boards: [lifetime],
    defaultCategory: 'stars',
    changes: [points('points', 30), points('stars', 7)],
    expected: [delta('lifetime', 7)],
  },
  {
    name: 'lifetime points with a category count that category, not the default',
    boards: [lifetimeCoins],
    changes: [points('coins', 12), points('points', 30)],
    expected: [delta('lifetime-coins', 12)],
  },
  {
    name: 'lifetime points without a category and no default category count nothing',
    boards: [lifetime],
    defaultCategory: undefined,
    changes: [points('points', 30)],
    expected: [],
  },
  // missionsCompleted: +1 per completion.
  { name: 'one completion is +1', boards: [completions], changes: [completion()], expected: [delta('completions', 1)] },
  { name: 'three completions are +3', boards: [completions], changes: [completion(), completion(), completion()], expected: [delta('completions', 3)] },
  { name: 'completions ignore points and actions', boards: [completions], changes: [points('points', 10), action('Run', 1)], expected: [] },
  // actionCount / actionValueSum: the board's action only, compared case-insensitively.
  { name: 'an action counts +1 whatever its value', boards: [runCount], changes: [action('Run', 5)], expected: [delta('run-count', 1)] },
  { name: 'an action sums its value', boards: [runSum], changes: [action('Run', 5)], expected: [delta('run-sum', 5)] },
  {
    name: 'action names compare case-insensitively',
    boards: [runCount, runSum],
    changes: [action('rUN', 2.5), action('run', 4)],
    expected: [delta('run-count', 2), delta('run-sum', 6.5)],
  },
  { name: 'another action does not count', boards: [runCount, runSum], changes: [action('Swim', 5), action('Running', 5)], expected: [] },
  { name: 'action boards ignore points and completions', boards: [runCount, runSum], changes: [points('coins', 10), completion()], expected: [] },
  {
    name: 'an action board without an action counts nothing',
    boards: [board('no-action', { type: 'actionCount' })],
    changes: [action('Run', 1)],
    expected: [],
  },
  // Undo (a reversal): the change taken back, including a credit's lifetime points, which a debit leaves.
  {
    name: 'an undone credit lowers its points board',
    boards: [coinsBoard],
    changes: [{ ...points('coins', 10), undo: true }],
    expected: [delta('coins', -10)],
  },
  {
    name: 'an undone credit lowers lifetime points, which a debit does not',
    boards: [lifetime],
    changes: [{ ...points('points', 30), undo: true }, points('points', -5)],
    expected: [delta('lifetime', -30)],
  },
  {
    name: 'an undone debit raises the points board and leaves lifetime points',
    boards: [coinsBoard, lifetimeCoins],
    changes: [{ ...points('coins', -10), undo: true }],
    expected: [delta('coins', 10)],
  },
  {
    name: 'an undone completion is -1',
    boards: [completions],
    changes: [completion(), { ...completion(), undo: true }, { ...completion(), undo: true }],
    expected: [delta('completions', -1)],
  },
  {
    name: 'an undone action takes back its count and value',
    boards: [runCount, runSum],
    changes: [{ ...action('Run', 4), undo: true }],
    expected: [delta('run-count', -1), delta('run-sum', -4)],
  },
  {
    name: 'an undone change lands in the window of its own time',
    boards: [dailyCoins],
    changes: [{ ...points('coins', 10, at('2026-06-15T03:30:00Z')), undo: true }],
    expected: [delta('daily-coins', -10, '2026-06-14T04:00:00Z', at('2026-06-15T03:30:00Z'))],
  },
  // Party and group filters.
  { name: 'a group board does not move for a user', boards: [groupCoins], changes: [points('coins', 10)], expected: [] },
  { name: 'a user board does not move for a group', boards: [coinsBoard], party: 'group', changes: [points('coins', 10)], expected: [] },
  {
    name: 'a group board moves for a group',
    boards: [groupCoins, coinsBoard],
    party: 'group',
    changes: [points('coins', 10)],
    expected: [delta('group-coins', 10)],
  },
  {
    name: 'a filtered board moves for a member of its group',
    boards: [g1Coins],
    groups: ['g2', 'g1'],
    changes: [points('coins', 10)],
    expected: [delta('g1-coins', 10)],
  },
  { name: 'a filtered board does not move for a user in other groups', boards: [g1Coins], groups: ['g2'], changes: [points('coins', 10)], expected: [] },
  { name: 'a filtered board does not move for a user in no group', boards: [g1Coins], changes: [points('coins', 10)], expected: [] },
  {
    name: 'a filtered board never moves for a group party, even one listed in its groups',
    boards: [g1GroupCoins],
    party: 'group',
    groups: ['g1'],
    changes: [points('coins', 10)],
    expected: [],
  },
  // Summing per board and window; cancelling out.
  {
    name: 'several changes for one board sum into one delta, dated by the latest',
    boards: [coinsBoard],
    changes: [points('coins', 10, NOW - 2000), points('coins', 5, NOW), points('coins', -3, NOW - 1000)],
    expected: [delta('coins', 12, 0, NOW)],
  },
  { name: 'changes that cancel out give no delta', boards: [coinsBoard], changes: [points('coins', 10), points('coins', -10)], expected: [] },
  {
    name: 'fractions that cancel out give no delta (no float residue)',
    boards: [runSum],
    changes: [action('Run', 0.1), action('Run', 0.2), action('Run', -0.3)],
    expected: [],
  },
  { name: 'fractions sum without float residue', boards: [runSum], changes: [action('Run', 0.1), action('Run', 0.2)], expected: [delta('run-sum', 0.3)] },
  {
    name: 'a change that sums to zero on one board still moves the others',
    boards: [coinsBoard, lifetimeCoins],
    changes: [points('coins', 10), points('coins', -10)],
    expected: [delta('lifetime-coins', 10)],
  },
  {
    name: 'one delta per board, in board order',
    boards: ALL,
    changes: [action('run', 3), points('coins', 20), completion(), points('points', 7), points('coins', -5)],
    expected: [delta('coins', 15), delta('lifetime', 7), delta('lifetime-coins', 20), delta('completions', 1), delta('run-count', 1), delta('run-sum', 3)],
  },
  // Windows: the calendar window, in the site's zone, of each change's own timestamp.
  {
    name: 'all-time boards have window 0, however old the change',
    boards: [coinsBoard],
    changes: [points('coins', 4, at('2019-01-01T00:00:00Z')), points('coins', 6)],
    expected: [delta('coins', 10, 0, NOW)],
  },
  {
    name: 'day in New York: 03:30 UTC is still the previous local day',
    boards: [dailyCoins],
    changes: [points('coins', 10, at('2026-06-15T03:30:00Z'))],
    expected: [delta('daily-coins', 10, '2026-06-14T04:00:00Z', at('2026-06-15T03:30:00Z'))],
  },
  {
    name: 'week starts on Sunday: Wednesday 17 June belongs to the week of Sunday 14 June',
    boards: [weeklyCoins],
    changes: [points('coins', 10, at('2026-06-17T12:00:00Z'))],
    expected: [delta('weekly-coins', 10, '2026-06-14T04:00:00Z', at('2026-06-17T12:00:00Z'))],
  },
  {
    name: 'Saturday 23:30 and Sunday 00:30 in New York are in different weeks',
    boards: [weeklyCoins],
    changes: [points('coins', 1, at('2026-06-14T03:30:00Z')), points('coins', 2, at('2026-06-14T04:30:00Z'))],
    expected: [
      delta('weekly-coins', 1, '2026-06-07T04:00:00Z', at('2026-06-14T03:30:00Z')),
      delta('weekly-coins', 2, '2026-06-14T04:00:00Z', at('2026-06-14T04:30:00Z')),
    ],
  },
  {
    name: 'quarter: 10 May belongs to the quarter starting 1 April local',
    boards: [quarterlyCoins],
    changes: [points('coins', 10, at('2026-05-10T12:00:00Z'))],
    expected: [delta('quarterly-coins', 10, '2026-04-01T04:00:00Z', at('2026-05-10T12:00:00Z'))],
  },
  {
    name: 'a backdated change lands in its own window: two windows, two deltas',
    boards: [dailyCoins],
    changes: [points('coins', 10), points('coins', 5, at('2026-06-10T16:00:00Z'))],
    expected: [delta('daily-coins', 10, '2026-06-15T04:00:00Z'), delta('daily-coins', 5, '2026-06-10T04:00:00Z', at('2026-06-10T16:00:00Z'))],
  },
  {
    name: 'a debit of a backdated credit lowers the credit’s window, not today’s',
    boards: [dailyCoins],
    changes: [points('coins', 7), points('coins', -5, at('2026-06-10T16:00:00Z'))],
    expected: [delta('daily-coins', 7, '2026-06-15T04:00:00Z'), delta('daily-coins', -5, '2026-06-10T04:00:00Z', at('2026-06-10T16:00:00Z'))],
  },
  {
    name: 'the same changes: one all-time delta, two daily deltas',
    boards: [coinsBoard, dailyCoins],
    changes: [points('coins', 10), points('coins', 5, at('2026-06-10T16:00:00Z')), points('coins', 1, NOW + 1000)],
    expected: [
      delta('coins', 16, 0, NOW + 1000),
      delta('daily-coins', 11, '2026-06-15T04:00:00Z', NOW + 1000),
      delta('daily-coins', 5, '2026-06-10T04:00:00Z', at('2026-06-10T16:00:00Z')),
    ],
  },
  {
    name: 'changes earlier the same day sum into today’s window',
    boards: [dailyCoins],
    changes: [points('coins', 3, at('2026-06-15T04:00:00Z')), points('coins', 4, at('2026-06-16T03:59:59.999Z'))],
    expected: [delta('daily-coins', 7, '2026-06-15T04:00:00Z', at('2026-06-16T03:59:59.999Z'))],
  },
  {
    // Noon on 15 June in New York is 16:00Z: a change at or after it is not on the board, one before (backdated) is.
    name: 'an allTime board with a fixed end counts only what happened before its end (site time zone)',
    boards: [board('final', { type: 'points', category: 'coins' }, { end: '2026-06-15T12:00:00' })],
    changes: [points('coins', 10, NOW), points('coins', 5, NOW - 1), points('coins', 7, NOW + 1)],
    expected: [delta('final', 5, 0, NOW - 1)],
  },
];

describe('scoreDeltas', () => {
  it.each(cases)('$name', (c) => {
    const defaultCategory = 'defaultCategory' in c ? c.defaultCategory : DEFAULT_CATEGORY;
    expect(scoreDeltas(c.boards, NY, defaultCategory, c.party ?? 'user', new Set(c.groups ?? []), c.changes)).toEqual(c.expected);
  });

  it('does not modify the boards or the changes it is given', () => {
    const boards = [coinsBoard, dailyCoins];
    const changes = [points('coins', 10), points('coins', 5, at('2026-06-10T16:00:00Z'))];
    const copies = structuredClone({ boards, changes });
    scoreDeltas(boards, NY, DEFAULT_CATEGORY, 'user', new Set(), changes);
    expect({ boards, changes }).toEqual(copies);
  });
});

describe('leaderboardWindow', () => {
  const cases: Array<{ name: string; period: LeaderboardPeriod; instant: string; start: string; end: string }> = [
    {
      name: 'day: late evening local is the previous UTC day',
      period: 'day',
      instant: '2026-06-15T03:30:00Z',
      start: '2026-06-14T04:00:00.000Z',
      end: '2026-06-15T04:00:00.000Z',
    },
    {
      name: 'week from Sunday, for a Wednesday',
      period: 'week',
      instant: '2026-06-17T12:00:00Z',
      start: '2026-06-14T04:00:00.000Z',
      end: '2026-06-21T04:00:00.000Z',
    },
    {
      name: 'week from Sunday, for the Sunday itself',
      period: 'week',
      instant: '2026-06-14T04:00:00Z',
      start: '2026-06-14T04:00:00.000Z',
      end: '2026-06-21T04:00:00.000Z',
    },
    { name: 'month', period: 'month', instant: '2026-05-10T12:00:00Z', start: '2026-05-01T04:00:00.000Z', end: '2026-06-01T04:00:00.000Z' },
    { name: 'quarter from April', period: 'quarter', instant: '2026-05-10T12:00:00Z', start: '2026-04-01T04:00:00.000Z', end: '2026-07-01T04:00:00.000Z' },
    {
      name: 'first quarter starts in winter time',
      period: 'quarter',
      instant: '2026-03-31T12:00:00Z',
      start: '2026-01-01T05:00:00.000Z',
      end: '2026-04-01T04:00:00.000Z',
    },
    { name: 'year', period: 'year', instant: '2026-05-10T12:00:00Z', start: '2026-01-01T05:00:00.000Z', end: '2027-01-01T05:00:00.000Z' },
    {
      name: 'year: New Year’s Eve evening local is still the old year',
      period: 'year',
      instant: '2027-01-01T04:59:59Z',
      start: '2026-01-01T05:00:00.000Z',
      end: '2027-01-01T05:00:00.000Z',
    },
  ];

  it.each(cases)('$name: $period of $instant in New York starts $start', ({ period, instant, start, end }) => {
    const window = leaderboardWindow(period, at(instant), NY);
    expect([iso(window.start), iso(window.end)]).toEqual([start, end]);
  });

  it.each(['2026-06-15T16:00:00Z', '1970-01-01T00:00:00Z', '2099-12-31T23:59:59Z'])('allTime holds %s in the one window from 0', (instant) => {
    expect(leaderboardWindow('allTime', at(instant), NY)).toEqual({ start: 0, end: Number.MAX_SAFE_INTEGER });
  });
});
