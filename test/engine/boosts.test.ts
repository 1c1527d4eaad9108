// Boosts and mission eligibility in the pure engine (docs/missions.md, "Boosts", "Prerequisites"):
// boost windows read in the boost's zone (start and end edges, across daylight-saving changes),
// backdated events, restrictions by action, mission and group, several boosts in force (the largest
// applies alone), rounding and caps after the boost; minimum levels at the threshold edge (points
// and custom levels) and excluded groups. Each row is one evaluate() call and what it must credit.
import { describe, expect, it } from 'vitest';
import { MAX_POINTS } from '../../src/engine/amounts.js';
import { engineBoosts, type BoostDefinition } from '../../src/engine/elements/boosts.js';
import { hasReached } from '../../src/engine/elements/eligibility.js';
import { evaluate } from '../../src/engine/evaluate.js';
import type { ActionEvent, EngineMission, EngineProgram, Party, PartyState, PointsAward } from '../../src/engine/types.js';
import { at, LA, LEVELS, mission, NOW, partyState as state, program } from './fixtures.js';

/** The shared program, with `boosts` read in Los Angeles. */
const boostedProgram = (missions: readonly EngineMission[], boosts: BoostDefinition[] = [], overrides: Partial<EngineProgram> = {}): EngineProgram =>
  program(missions, { ...(boosts.length > 0 ? { boosts: engineBoosts(boosts, LA) } : {}), ...overrides });
const event = (overrides: Partial<ActionEvent> = {}): ActionEvent => ({
  action: { name: 'Run', suppressRepeats: false },
  value: 1,
  metadata: {},
  timestamp: NOW,
  ...overrides,
});
const boost = (id: string, multiplier: number, overrides: Partial<BoostDefinition> = {}): BoostDefinition => ({
  id,
  multiplier,
  start: '2026-06-01T00:00:00',
  end: '2026-06-30T23:59:59',
  actions: [],
  missions: [],
  groups: [],
  ...overrides,
});
/** A reward of `before` points boosted to `requested` by `id` (credited: requested unless capped). */
const boosted = (id: string, multiplier: number, before: number, requested: number, credited = requested, category = 'points'): PointsAward => ({
  category,
  requested,
  credited,
  boost: { id, multiplier, requestedBefore: before },
});
const plain = (requested: number, category = 'points'): PointsAward => ({ category, requested, credited: requested });

interface BoostCase {
  name: string;
  boosts: BoostDefinition[];
  missions?: EngineMission[];
  party?: Party;
  state?: Partial<PartyState>;
  event?: Partial<ActionEvent>;
  points: PointsAward[];
}

// New York springs forward on Sunday 8 March 2026 (02:00 EST → 03:00 EDT) and falls back on
// Sunday 1 November 2026 (02:00 EDT → 01:00 EST: 01:00–01:59 happens twice).
const SPRING = { start: '2026-03-08T01:00:00', end: '2026-03-08T03:30:00', timezone: 'America/New_York' };
const FALL = { start: '2026-10-31T12:00:00', end: '2026-11-01T01:30:00', timezone: 'America/New_York' };

const boostCases: BoostCase[] = [
  { name: 'no boost: the reward as configured', boosts: [], points: [plain(10)] },
  { name: 'in force: the reward is multiplied', boosts: [boost('b', 2)], points: [boosted('b', 2, 10, 20)] },
  {
    name: 'a boost with a name says it',
    boosts: [boost('b', 2, { name: 'Double week' })],
    points: [{ ...boosted('b', 2, 10, 20), boost: { id: 'b', name: 'Double week', multiplier: 2, requestedBefore: 10 } }],
  },
  {
    name: 'rounded down: 7 × 1.5 is 10',
    boosts: [boost('b', 1.5)],
    missions: [mission('m', { rewards: { points: [{ category: 'points', amount: 7 }] } })],
    points: [boosted('b', 1.5, 7, 10)],
  },
  {
    name: 'no binary drift: 100 × 1.1 is 110',
    boosts: [boost('b', 1.1)],
    missions: [mission('m', { rewards: { points: [{ category: 'points', amount: 100 }] } })],
    points: [boosted('b', 1.1, 100, 110)],
  },
  { name: 'a multiplier below 1 lowers the reward', boosts: [boost('b', 0.5)], points: [boosted('b', 0.5, 10, 5)] },
  {
    name: "after the mission's own multiplier (amount × value × multiplier), then the boost",
    boosts: [boost('b', 3)],
    missions: [mission('m', { rewards: { points: [{ category: 'points', amount: 2 }], multiplier: 1.5 } })],
    event: { value: 5 },
    points: [boosted('b', 3, 15, 45)],
  },
  {
    name: 'before the daily cap: 150 coins × 2 is requested as 300, 200 credited',
    boosts: [boost('b', 2)],
    missions: [mission('m', { rewards: { points: [{ category: 'coins', amount: 150 }] } })],
    points: [boosted('b', 2, 150, 300, 200, 'coins')],
  },
  {
    name: 'never beyond the ledger range',
    boosts: [boost('b', 1_000_000)],
    missions: [mission('m', { rewards: { points: [{ category: 'points', amount: 10_000_000 }] } })],
    points: [boosted('b', 1_000_000, 10_000_000, MAX_POINTS)],
  },
  {
    name: 'every reward of the completion',
    boosts: [boost('b', 2)],
    missions: [
      mission('m', {
        rewards: {
          points: [
            { category: 'points', amount: 10 },
            { category: 'coins', amount: 5 },
          ],
        },
      }),
    ],
    points: [boosted('b', 2, 10, 20), boosted('b', 2, 5, 10, 10, 'coins')],
  },
  // Windows: the site zone when the boost has none; start and end seconds included.
  { name: 'start, site zone: at the first millisecond', boosts: [boost('b', 2, { start: '2026-06-15T11:00:00' })], points: [boosted('b', 2, 10, 20)] },
  {
    name: 'start, site zone: the millisecond before',
    boosts: [boost('b', 2, { start: '2026-06-15T11:00:00' })],
    event: { timestamp: NOW - 1 },
    points: [plain(10)],
  },
  {
    name: 'end, site zone: its second is included',
    boosts: [boost('b', 2, { end: '2026-06-15T11:00:00' })],
    event: { timestamp: NOW + 999 },
    points: [boosted('b', 2, 10, 20)],
  },
  {
    name: 'end, site zone: the next second is not',
    boosts: [boost('b', 2, { end: '2026-06-15T11:00:00' })],
    event: { timestamp: NOW + 1000 },
    points: [plain(10)],
  },
  {
    name: 'end without seconds: its whole minute',
    boosts: [boost('b', 2, { end: '2026-06-15T11:00' })],
    event: { timestamp: NOW + 59_999 },
    points: [boosted('b', 2, 10, 20)],
  },
  {
    name: "the boost's own zone: 20:00 in Paris is 11:00 in LA",
    boosts: [boost('b', 2, { start: '2026-06-15T20:00:00', timezone: 'Europe/Paris' })],
    points: [boosted('b', 2, 10, 20)],
  },
  {
    name: "the boost's own zone: not yet at 19:59:59 Paris",
    boosts: [boost('b', 2, { start: '2026-06-15T20:00:01', timezone: 'Europe/Paris' })],
    points: [plain(10)],
  },
  // Spring forward: 01:00 EST is 06:00Z; 03:30 EDT is 07:30Z.
  {
    name: 'DST spring: before the start (05:59:59.999Z)',
    boosts: [boost('b', 2, SPRING)],
    event: { timestamp: at('2026-03-08T05:59:59.999Z') },
    points: [plain(10)],
  },
  {
    name: 'DST spring: at the start (06:00Z, 01:00 EST)',
    boosts: [boost('b', 2, SPRING)],
    event: { timestamp: at('2026-03-08T06:00:00Z') },
    points: [boosted('b', 2, 10, 20)],
  },
  {
    name: 'DST spring: the last millisecond (07:30:00.999Z, 03:30 EDT)',
    boosts: [boost('b', 2, SPRING)],
    event: { timestamp: at('2026-03-08T07:30:00.999Z') },
    points: [boosted('b', 2, 10, 20)],
  },
  { name: 'DST spring: after the end (07:30:01Z)', boosts: [boost('b', 2, SPRING)], event: { timestamp: at('2026-03-08T07:30:01Z') }, points: [plain(10)] },
  // Fall back: 01:30 happens twice; the window ends at its first occurrence (05:30Z, EDT).
  {
    name: 'DST fall: the first 01:30 (EDT) is in',
    boosts: [boost('b', 2, FALL)],
    event: { timestamp: at('2026-11-01T05:30:00.500Z') },
    points: [boosted('b', 2, 10, 20)],
  },
  { name: 'DST fall: the second 01:30 (EST) is out', boosts: [boost('b', 2, FALL)], event: { timestamp: at('2026-11-01T06:30:00Z') }, points: [plain(10)] },
  // Backdated events take the boost in force at their own timestamp.
  {
    name: 'backdated into a past window: boosted',
    boosts: [boost('b', 2, { start: '2026-05-01T00:00:00', end: '2026-05-31T23:59:59' })],
    event: { timestamp: at('2026-05-20T18:00:00Z') },
    points: [boosted('b', 2, 10, 20)],
  },
  { name: 'backdated out of a current window: not boosted', boosts: [boost('b', 2)], event: { timestamp: at('2026-05-20T18:00:00Z') }, points: [plain(10)] },
  // Restrictions.
  { name: 'actions: the action advancing the mission (any case)', boosts: [boost('b', 2, { actions: ['RUN'] })], points: [boosted('b', 2, 10, 20)] },
  { name: 'actions: another action', boosts: [boost('b', 2, { actions: ['swim'] })], points: [plain(10)] },
  { name: 'missions: the mission', boosts: [boost('b', 2, { missions: ['m'] })], points: [boosted('b', 2, 10, 20)] },
  {
    name: 'missions: only the listed one of two completed',
    boosts: [boost('b', 2, { missions: ['m2'] })],
    missions: [mission('m'), mission('m2')],
    points: [plain(10), boosted('b', 2, 10, 20)],
  },
  { name: 'groups: a member', boosts: [boost('b', 2, { groups: ['g1', 'g2'] })], state: { groups: new Set(['g2']) }, points: [boosted('b', 2, 10, 20)] },
  { name: 'groups: not a member', boosts: [boost('b', 2, { groups: ['g1'] })], state: { groups: new Set(['g3']) }, points: [plain(10)] },
  {
    name: "groups: a group's own mission is not boosted by a group boost",
    boosts: [boost('b', 2, { groups: ['g1'] })],
    missions: [mission('m', { party: 'group' })],
    party: 'group',
    points: [plain(10)],
  },
  {
    name: "groups: a group's own mission is boosted by an open boost",
    boosts: [boost('b', 2)],
    missions: [mission('m', { party: 'group' })],
    party: 'group',
    points: [boosted('b', 2, 10, 20)],
  },
  // Several in force: the largest multiplier alone, never compounded.
  { name: 'several: the largest applies', boosts: [boost('a', 2), boost('b', 3), boost('c', 1.5)], points: [boosted('b', 3, 10, 30)] },
  { name: 'several: a tie goes to the first listed', boosts: [boost('a', 2), boost('b', 2)], points: [boosted('a', 2, 10, 20)] },
  {
    name: 'several: a larger one out of its window does not count',
    boosts: [boost('a', 2), boost('b', 5, { end: '2026-06-10T00:00:00' })],
    points: [boosted('a', 2, 10, 20)],
  },
  {
    name: 'several: a larger one for another group does not count',
    boosts: [boost('a', 2), boost('b', 5, { groups: ['g9'] })],
    points: [boosted('a', 2, 10, 20)],
  },
];

describe('boosts', () => {
  it.each(boostCases)('$name', (c) => {
    const missions = c.missions ?? [mission('m')];
    const decision = evaluate(boostedProgram(missions, c.boosts), c.party ?? 'user', state(c.state), event(c.event));
    expect(decision.pointsAwarded).toEqual(c.points);
  });

  it('a program without boosts has no boost list in its engine program (no work per action)', () => {
    expect(boostedProgram([mission('m')])).not.toHaveProperty('boosts');
  });

  it('the boosted amount counts towards the level', () => {
    const decision = evaluate(
      boostedProgram([mission('m', { rewards: { points: [{ category: 'points', amount: 60 }] } })], [boost('b', 2)]),
      'user',
      state(),
      event(),
    );
    expect(decision.levelChanged?.to?.id).toBe('l2');
  });
});

interface EligibilityCase {
  name: string;
  mission: Partial<EngineMission>;
  program?: Partial<EngineProgram>;
  party?: Party;
  state?: Partial<PartyState>;
  advances: boolean;
}

const minLevel = (level: string) => ({ prerequisites: { groups: [], missions: [], minLevel: level } });
const excluded = (...groups: string[]) => ({ prerequisites: { groups: [], missions: [], excludedGroups: groups } });
const CUSTOM = { levelType: 'custom' as const };

const eligibilityCases: EligibilityCase[] = [
  { name: 'minLevel (points): one point short of the threshold', mission: minLevel('l2'), state: { lifetimeDefaultPoints: 99 }, advances: false },
  { name: 'minLevel (points): exactly at the threshold', mission: minLevel('l2'), state: { lifetimeDefaultPoints: 100 }, advances: true },
  { name: 'minLevel (points): above it', mission: minLevel('l2'), state: { lifetimeDefaultPoints: 501 }, advances: true },
  { name: 'minLevel (points): the lowest level, with no points', mission: minLevel('l1'), state: { lifetimeDefaultPoints: 0 }, advances: true },
  { name: 'minLevel (custom): the assigned level itself', mission: minLevel('l2'), program: CUSTOM, state: { assignedLevel: 'l2' }, advances: true },
  { name: 'minLevel (custom): a level above', mission: minLevel('l2'), program: CUSTOM, state: { assignedLevel: 'l3' }, advances: true },
  {
    name: 'minLevel (custom): a level below',
    mission: minLevel('l2'),
    program: CUSTOM,
    state: { assignedLevel: 'l1', lifetimeDefaultPoints: 10_000 },
    advances: false,
  },
  { name: 'minLevel (custom): none assigned is the lowest level', mission: minLevel('l1'), program: CUSTOM, state: { assignedLevel: null }, advances: true },
  { name: 'minLevel (custom): none assigned is below the second', mission: minLevel('l2'), program: CUSTOM, state: { assignedLevel: null }, advances: false },
  { name: 'minLevel: a group mission is not held back', mission: { ...minLevel('l3'), party: 'group' }, party: 'group', advances: true },
  { name: 'excludedGroups: a member of one', mission: excluded('g1', 'g2'), state: { groups: new Set(['g2']) }, advances: false },
  { name: 'excludedGroups: a member of none', mission: excluded('g1'), state: { groups: new Set(['g3']) }, advances: true },
  { name: 'excludedGroups: no groups at all', mission: excluded('g1'), advances: true },
  { name: 'excludedGroups: a group mission is not restricted', mission: { ...excluded('g1'), party: 'group' }, party: 'group', advances: true },
];

describe('eligibility: minimum level and excluded groups', () => {
  it.each(eligibilityCases)('$name', (c) => {
    const decision = evaluate(boostedProgram([mission('m', c.mission)], [], c.program), c.party ?? 'user', state(c.state), event());
    expect(decision.progress.map((p) => p.missionId)).toEqual(c.advances ? ['m'] : []);
    expect(decision.completions.length).toBe(c.advances ? 1 : 0);
  });

  it('an unknown level is never reached', () => {
    expect(hasReached({ levelType: 'points', levels: LEVELS }, 'gone', { lifetimeDefaultPoints: 1e9 })).toBe(false);
  });
});
