// The pure rule engine, SPEC §5 steps 3–8 (and §1 behaviours): suppression, rate limits, mission
// dates in the mission's zone (backdating), prerequisites, metadata, count/sum rules, ruleMatch,
// repeat windows, supply, multiplier, daily/yearly caps in importance order, badges and levels.
// Each row is one evaluate(program, party, state, event) call and the decision it must give.
import { describe, expect, it } from 'vitest';
import { evaluate, type EvaluateOptions } from '../../src/engine/evaluate.js';
import type {
  ActionEvent,
  EngineAction,
  EngineMission,
  EngineProgram,
  LevelChange,
  MissionCompletion,
  MissionState,
  Party,
  PartyState,
  PointsAward,
} from '../../src/engine/types.js';
import { at, LEVELS, mission, NOW, partyState, program, rule } from './fixtures.js';

const run: EngineAction = { name: 'Run', suppressRepeats: false };
const swim: EngineAction = { name: 'swim', suppressRepeats: false };
const careful: EngineAction = { name: 'Run', suppressRepeats: true };
const limited: EngineAction = { name: 'Run', suppressRepeats: false, rateLimit: { max: 3, period: 'day' } };

const missionState = (progress: Record<string, number>, overrides: Partial<MissionState> = {}): MissionState => ({
  progress: new Map(Object.entries(progress)),
  progressWindowStart: 0,
  completionsInWindow: 0,
  completionsTotal: 0,
  ...overrides,
});
const missions = (entries: Record<string, MissionState>) => new Map(Object.entries(entries));

const event = (overrides: Partial<ActionEvent> = {}): ActionEvent => ({ action: run, value: 1, metadata: {}, timestamp: NOW, ...overrides });
const award = (category: string, requested: number, credited = requested): PointsAward => ({ category, requested, credited });

interface Case {
  name: string;
  missions: EngineMission[];
  program?: Partial<EngineProgram>;
  party?: Party;
  state?: Partial<PartyState>;
  event?: Partial<ActionEvent>;
  options?: EvaluateOptions;
  expected: {
    recorded?: boolean; // default true
    reason?: 'repeat_suppressed' | 'rate_limited';
    completed: string[];
    points?: PointsAward[]; // default []
    /** [missionId, current per rule, percentComplete, windowStart?] */
    progress: Array<[string, number[], number, number?]>;
    completions?: Array<Partial<MissionCompletion>>;
    levelChanged?: LevelChange;
  };
}

const JUNE = { startDate: '2026-06-01T00:00:00', endDate: '2026-06-30T23:59:59' };
const DONE = { completed: ['m'], points: [award('points', 10)], progress: [['m', [0], 100]] } satisfies Partial<Case['expected']>;
const NOTHING = { completed: [], progress: [] } satisfies Partial<Case['expected']>;
const count3 = mission('m', { rules: [rule('r', { goal: 3 })] });
const sum100 = mission('m', { rules: [rule('r', { type: 'sum', goal: 100 })] });
const runAndSwim = (ruleMatch: 'all' | 'any') => mission('m', { ruleMatch, rules: [rule('run'), rule('swim', { action: 'Swim' })] });
const coins = (id: string, amount: number, importance = 0) => mission(id, { importance, rewards: { points: [{ category: 'coins', amount }] } });
const onRoute = mission('m', { rules: [rule('r', { metadata: [{ name: 'Route', value: 'Park' }] })] });
const daily = (maxPerPeriod?: number, goal = 1) => mission('m', { rules: [rule('r', { goal })], repeatableWindow: { period: 'day', maxPerPeriod } });
const TODAY = at('2026-06-15T07:00:00Z');
const YESTERDAY = at('2026-06-14T07:00:00Z');
const groupMission = mission('g', { party: 'group' });
const GROUP_DONE = { completed: ['g'], points: [award('points', 10)], progress: [['g', [0], 100]] } satisfies Partial<Case['expected']>;

const cases: Case[] = [
  // Dates: [startDate, endDate] in the mission's zone; backdating (§1).
  { name: 'action now, inside the range, completes', missions: [mission('m', JUNE)], expected: DONE },
  { name: 'backdated action inside the range completes', missions: [mission('m', JUNE)], event: { timestamp: at('2026-06-10T12:00:00Z') }, expected: DONE },
  { name: 'the start instant is inside', missions: [mission('m', JUNE)], event: { timestamp: at('2026-06-01T07:00:00Z') }, expected: DONE },
  { name: 'one second before the start is outside', missions: [mission('m', JUNE)], event: { timestamp: at('2026-06-01T06:59:59Z') }, expected: NOTHING },
  { name: 'the end date’s last second is inside', missions: [mission('m', JUNE)], event: { timestamp: at('2026-07-01T06:59:59.999Z') }, expected: DONE },
  { name: 'after the end is outside', missions: [mission('m', JUNE)], event: { timestamp: at('2026-07-01T07:00:00Z') }, expected: NOTHING },
  {
    name: 'expired mission completed by a backdated action inside its range',
    missions: [mission('m', { startDate: '2025-01-01T00:00:00', endDate: '2025-01-31T23:59:59' })],
    event: { timestamp: at('2025-01-20T12:00:00Z') },
    expected: DONE,
  },
  {
    name: 'expired mission, backdated action after its end',
    missions: [mission('m', { startDate: '2025-01-01T00:00:00', endDate: '2025-01-31T23:59:59' })],
    event: { timestamp: at('2025-02-01T08:00:00Z') },
    expected: NOTHING,
  },
  {
    name: 'the mission’s zone decides: 1 July 01:00 in Tokyo, still 30 June in Los Angeles',
    missions: [mission('tokyo', { timezone: 'Asia/Tokyo', startDate: '2026-07-01T00:00:00' }), mission('la', { startDate: '2026-07-01T00:00:00' })],
    event: { timestamp: at('2026-06-30T16:00:00Z') },
    expected: { completed: ['tokyo'], points: [award('points', 10)], progress: [['tokyo', [0], 100]] },
  },
  // Prerequisites (all must hold).
  {
    name: 'group prerequisite met',
    missions: [mission('m', { prerequisites: { groups: ['g1'], missions: [] } })],
    state: { groups: new Set(['g1', 'g2']) },
    expected: DONE,
  },
  {
    name: 'group prerequisite not met',
    missions: [mission('m', { prerequisites: { groups: ['g1'], missions: [] } })],
    state: { groups: new Set(['g2']) },
    expected: NOTHING,
  },
  {
    name: 'mission prerequisite met',
    missions: [mission('m', { prerequisites: { groups: [], missions: ['intro'] } })],
    state: { completedMissions: new Set(['intro']) },
    expected: DONE,
  },
  {
    name: 'mission prerequisite not met',
    missions: [mission('m', { prerequisites: { groups: [], missions: ['intro'] } })],
    state: { completedMissions: new Set(['other']) },
    expected: NOTHING,
  },
  {
    name: 'group met but mission prerequisite not met',
    missions: [mission('m', { prerequisites: { groups: ['g1'], missions: ['intro'] } })],
    state: { groups: new Set(['g1']) },
    expected: NOTHING,
  },
  // Metadata rules: names and values compared exactly, case-insensitively.
  { name: 'metadata matches', missions: [onRoute], event: { metadata: { Route: 'Park' } }, expected: DONE },
  { name: 'metadata matches with other pairs beside it', missions: [onRoute], event: { metadata: { distance: '5', Route: 'Park' } }, expected: DONE },
  { name: 'metadata matches in another case (name and value)', missions: [onRoute], event: { metadata: { rOUTE: 'pARK' } }, expected: DONE },
  { name: 'metadata value differs', missions: [onRoute], event: { metadata: { Route: 'Beach' } }, expected: NOTHING },
  { name: 'metadata value is only a prefix', missions: [onRoute], event: { metadata: { Route: 'Parking' } }, expected: NOTHING },
  { name: 'metadata missing', missions: [onRoute], event: { metadata: {} }, expected: NOTHING },
  { name: 'metadata under another name', missions: [onRoute], event: { metadata: { Path: 'Park' } }, expected: NOTHING },
  // Count and sum rules; completion restarts progress from zero.
  { name: 'count 3: first action → 1/3', missions: [count3], expected: { completed: [], progress: [['m', [1], 33, 0]] } },
  {
    name: 'count 3: second action → 2/3',
    missions: [count3],
    state: { missions: missions({ m: missionState({ r: 1 }) }) },
    expected: { completed: [], progress: [['m', [2], 66]] },
  },
  { name: 'count 3: third action completes, progress reset', missions: [count3], state: { missions: missions({ m: missionState({ r: 2 }) }) }, expected: DONE },
  { name: 'count ignores the value', missions: [count3], event: { value: 50 }, expected: { completed: [], progress: [['m', [1], 33]] } },
  { name: 'sum adds the value', missions: [sum100], event: { value: 40 }, expected: { completed: [], progress: [['m', [40], 40]] } },
  {
    name: 'sum reaches the goal, overshoot discarded',
    missions: [sum100],
    event: { value: 70 },
    state: { missions: missions({ m: missionState({ r: 50 }) }) },
    expected: DONE,
  },
  {
    name: 'sum with a negative value goes back',
    missions: [sum100],
    event: { value: -10 },
    state: { missions: missions({ m: missionState({ r: 50 }) }) },
    expected: { completed: [], progress: [['m', [40], 40]] },
  },
  {
    name: 'sum of decimal values reaches a decimal goal (0.7 + 0.1 ≥ 0.8)',
    missions: [mission('m', { rules: [rule('r', { type: 'sum', goal: 0.8 })] })],
    event: { value: 0.1 },
    state: { missions: missions({ m: missionState({ r: 0.7 }) }) },
    expected: DONE,
  },
  // ruleMatch and multi-action progress (§3).
  {
    name: 'all: the first of two actions gives 50% and no completion',
    missions: [runAndSwim('all')],
    expected: { completed: [], progress: [['m', [1, 0], 50]] },
  },
  {
    name: 'all: the second action completes',
    missions: [runAndSwim('all')],
    event: { action: swim },
    state: { missions: missions({ m: missionState({ run: 1 }) }) },
    expected: { ...DONE, progress: [['m', [0, 0], 100]] },
  },
  {
    name: 'all: repeating the first action does not complete',
    missions: [runAndSwim('all')],
    state: { missions: missions({ m: missionState({ run: 1 }) }) },
    expected: { completed: [], progress: [['m', [2, 0], 50]] },
  },
  { name: 'any: one action completes', missions: [runAndSwim('any')], event: { action: swim }, expected: { ...DONE, progress: [['m', [0, 0], 100]] } },
  {
    name: 'any: percent is the best rule',
    missions: [mission('m', { ruleMatch: 'any', rules: [rule('run', { goal: 4 }), rule('swim', { action: 'swim', goal: 2 })] })],
    event: { action: swim },
    expected: { completed: [], progress: [['m', [0, 1], 50]] },
  },
  // Points: multiplier, floor, never below zero (§1, §5 step 7).
  { name: 'without a multiplier the value does not scale points', missions: [mission('m')], event: { value: 7 }, expected: DONE },
  {
    name: 'multiplier: floor(10 × 2.5 × 1.5) = 37',
    missions: [mission('m', { rewards: { points: [{ category: 'points', amount: 10 }], multiplier: 1.5 } })],
    event: { value: 2.5 },
    expected: { ...DONE, points: [award('points', 37)] },
  },
  {
    name: 'multiplier with a negative value credits zero',
    missions: [mission('m', { rewards: { points: [{ category: 'points', amount: 10 }], multiplier: 2 } })],
    event: { value: -4 },
    expected: { ...DONE, points: [award('points', 0)] },
  },
  {
    name: 'multiplier with a decimal value: floor(100 × 0.57 × 1) = 57',
    missions: [mission('m', { rewards: { points: [{ category: 'points', amount: 100 }], multiplier: 1 } })],
    event: { value: 0.57 },
    expected: { ...DONE, points: [award('points', 57)] },
  },
  {
    name: 'several rewards in several categories',
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
    expected: { ...DONE, points: [award('points', 10), award('coins', 5)] },
  },
  // Daily and yearly category caps.
  {
    name: 'daily cap cuts an award: 50 requested, 30 credited (170 of 200 earned today)',
    missions: [coins('m', 50)],
    state: { earned: new Map([['coins', { day: 170, year: 500 }]]) },
    expected: { ...DONE, points: [award('coins', 50, 30)] },
  },
  {
    name: 'yearly cap cuts an award (980 of 1000 earned this year)',
    missions: [coins('m', 50)],
    state: { earned: new Map([['coins', { day: 0, year: 980 }]]) },
    expected: { ...DONE, points: [award('coins', 50, 20)] },
  },
  {
    name: 'cap already exhausted: credited 0, mission still completes',
    missions: [coins('m', 50)],
    state: { earned: new Map([['coins', { day: 200, year: 500 }]]) },
    expected: { ...DONE, points: [award('coins', 50, 0)] },
  },
  {
    name: 'earnings in another category do not count',
    missions: [coins('m', 50)],
    state: { earned: new Map([['points', { day: 5000, year: 5000 }]]) },
    expected: { ...DONE, points: [award('coins', 50)] },
  },
  {
    name: 'two missions, one cap: the higher importance is credited first',
    missions: [coins('a-low', 50, 1), coins('z-high', 50, 5)],
    state: { earned: new Map([['coins', { day: 150, year: 0 }]]) },
    expected: {
      completed: ['z-high', 'a-low'],
      points: [award('coins', 50), award('coins', 50, 0)],
      progress: [
        ['a-low', [0], 100],
        ['z-high', [0], 100],
      ],
    },
  },
  {
    name: 'two missions of equal importance: credited in id order',
    missions: [coins('b', 50, 2), coins('a', 50, 2)],
    state: { earned: new Map([['coins', { day: 170, year: 0 }]]) },
    expected: {
      completed: ['a', 'b'],
      points: [award('coins', 50, 30), award('coins', 50, 0)],
      progress: [
        ['b', [0], 100],
        ['a', [0], 100],
      ],
    },
  },
  // Rate limit (§5 step 4) and back-to-back suppression (step 3).
  {
    name: 'rate limit reached: not recorded, no progress',
    missions: [mission('m')],
    event: { action: limited },
    state: { recordedInRateWindow: 3 },
    expected: { recorded: false, reason: 'rate_limited', ...NOTHING },
  },
  { name: 'rate limit not yet reached', missions: [mission('m')], event: { action: limited }, state: { recordedInRateWindow: 2 }, expected: DONE },
  {
    name: 'same action, value and metadata as the last one: suppressed',
    missions: [mission('m')],
    event: { action: careful, metadata: { a: '1' } },
    state: { lastRecorded: { action: 'run', value: 1, metadata: { a: '1' } } },
    expected: { recorded: false, reason: 'repeat_suppressed', ...NOTHING },
  },
  {
    name: 'suppression is checked before the rate limit',
    missions: [mission('m')],
    event: { action: { ...limited, suppressRepeats: true } },
    state: { recordedInRateWindow: 9, lastRecorded: { action: 'Run', value: 1, metadata: {} } },
    expected: { recorded: false, reason: 'repeat_suppressed', ...NOTHING },
  },
  {
    name: 'different value: recorded',
    missions: [mission('m')],
    event: { action: careful, value: 2 },
    state: { lastRecorded: { action: 'Run', value: 1, metadata: {} } },
    expected: DONE,
  },
  {
    name: 'different metadata: recorded',
    missions: [mission('m')],
    event: { action: careful, metadata: { a: '2' } },
    state: { lastRecorded: { action: 'Run', value: 1, metadata: { a: '1' } } },
    expected: DONE,
  },
  {
    name: 'extra metadata: recorded',
    missions: [mission('m')],
    event: { action: careful, metadata: { a: '1', b: '1' } },
    state: { lastRecorded: { action: 'Run', value: 1, metadata: { a: '1' } } },
    expected: DONE,
  },
  {
    name: 'previous action was another one: recorded',
    missions: [mission('m')],
    event: { action: careful },
    state: { lastRecorded: { action: 'swim', value: 1, metadata: {} } },
    expected: DONE,
  },
  {
    name: 'suppressRepeats false: an identical repeat is recorded',
    missions: [mission('m')],
    state: { lastRecorded: { action: 'Run', value: 1, metadata: {} } },
    expected: DONE,
  },
  {
    name: 'memberAction skips suppression and the rate limit',
    missions: [groupMission],
    party: 'group',
    options: { memberAction: true },
    event: { action: { ...limited, suppressRepeats: true } },
    state: { recordedInRateWindow: 3, lastRecorded: { action: 'Run', value: 1, metadata: {} } },
    expected: GROUP_DONE,
  },
  // Repeatable windows, maxPerPeriod, non-repeatable, supply.
  {
    name: 'repeatable: maxPerPeriod reached in this window → no progress',
    missions: [daily(2)],
    state: { missions: missions({ m: missionState({}, { completionsInWindow: 2, completionsTotal: 7, progressWindowStart: TODAY }) }) },
    expected: NOTHING,
  },
  {
    name: 'repeatable: a new window may complete again',
    missions: [daily(2)],
    state: { missions: missions({ m: missionState({}, { completionsInWindow: 0, completionsTotal: 7, progressWindowStart: YESTERDAY }) }) },
    expected: { ...DONE, progress: [['m', [0], 100, TODAY]], completions: [{ missionId: 'm', windowStart: TODAY }] },
  },
  {
    name: 'repeatable: progress of an older window does not carry over',
    missions: [daily(2, 3)],
    state: { missions: missions({ m: missionState({ r: 2 }, { progressWindowStart: YESTERDAY }) }) },
    expected: { completed: [], progress: [['m', [1], 33, TODAY]] },
  },
  {
    name: 'repeatable: progress of the current window carries',
    missions: [daily(2, 3)],
    state: { missions: missions({ m: missionState({ r: 2 }, { progressWindowStart: TODAY, completionsInWindow: 1 }) }) },
    expected: { ...DONE, progress: [['m', [0], 100, TODAY]] },
  },
  {
    name: 'repeatable without maxPerPeriod is unlimited',
    missions: [daily(undefined)],
    state: { missions: missions({ m: missionState({}, { completionsInWindow: 40, completionsTotal: 40 }) }) },
    expected: DONE,
  },
  {
    name: 'repeatable window none: maxPerPeriod is a lifetime maximum',
    missions: [mission('m', { repeatableWindow: { period: 'none', maxPerPeriod: 3 } })],
    state: { missions: missions({ m: missionState({}, { completionsInWindow: 3, completionsTotal: 3 }) }) },
    expected: NOTHING,
  },
  {
    name: 'repeatable window none below its maximum: window 0',
    missions: [mission('m', { repeatableWindow: { period: 'none', maxPerPeriod: 3 } })],
    state: { missions: missions({ m: missionState({}, { completionsInWindow: 2, completionsTotal: 2 }) }) },
    expected: { ...DONE, progress: [['m', [0], 100, 0]] },
  },
  {
    name: 'weekly window starts on Sunday in the mission’s zone',
    missions: [mission('m', { repeatableWindow: { period: 'week' } })],
    expected: { ...DONE, progress: [['m', [0], 100, at('2026-06-14T07:00:00Z')]] },
  },
  {
    name: 'daily window in Tokyo (already 16 June there)',
    missions: [mission('m', { timezone: 'Asia/Tokyo', repeatableWindow: { period: 'day' } })],
    expected: { ...DONE, progress: [['m', [0], 100, at('2026-06-15T15:00:00Z')]] },
  },
  {
    name: 'non-repeatable already completed → no progress',
    missions: [count3],
    state: { missions: missions({ m: missionState({ r: 2 }, { completionsTotal: 1, completionsInWindow: 1 }) }) },
    expected: NOTHING,
  },
  { name: 'supply exhausted → skipped', missions: [mission('m', { supply: 5 })], state: { supplyRemaining: new Map([['m', 0]]) }, expected: NOTHING },
  {
    name: 'supply left → completes and uses supply',
    missions: [mission('m', { supply: 5 })],
    state: { supplyRemaining: new Map([['m', 1]]) },
    expected: { ...DONE, completions: [{ missionId: 'm', usesSupply: true }] },
  },
  {
    name: 'no supply → does not use supply',
    missions: [mission('m')],
    expected: { ...DONE, completions: [{ missionId: 'm', name: 'Mission m', usesSupply: false, windowStart: 0 }] },
  },
  // Party.
  { name: 'a group mission is not advanced by a user evaluation', missions: [groupMission], expected: NOTHING },
  { name: 'a user mission is not advanced by a group evaluation', missions: [mission('m')], party: 'group', expected: NOTHING },
  { name: 'a group mission is advanced by a group evaluation', missions: [groupMission, mission('m')], party: 'group', expected: GROUP_DONE },
  { name: 'groups do not change level', missions: [groupMission], party: 'group', state: { lifetimeDefaultPoints: 95 }, expected: GROUP_DONE },
  // Badges and levels.
  {
    name: 'badge in the completion',
    missions: [mission('m', { rewards: { points: [], badge: 'b-runner' } })],
    expected: { completed: ['m'], progress: [['m', [0], 100]], completions: [{ missionId: 'm', badge: 'b-runner', points: [] }] },
  },
  {
    name: 'levelType points: crossing a threshold',
    missions: [mission('m')],
    state: { lifetimeDefaultPoints: 95 },
    expected: { ...DONE, levelChanged: { from: LEVELS[0]!, to: LEVELS[1]!, direction: 'up' } },
  },
  {
    name: 'levelType points: reaching a threshold exactly',
    missions: [mission('m')],
    state: { lifetimeDefaultPoints: 90 },
    expected: { ...DONE, levelChanged: { from: LEVELS[0]!, to: LEVELS[1]!, direction: 'up' } },
  },
  {
    name: 'levelType points: skipping a level',
    missions: [mission('m', { rewards: { points: [{ category: 'points', amount: 450 }] } })],
    state: { lifetimeDefaultPoints: 95 },
    expected: { ...DONE, points: [award('points', 450)], levelChanged: { from: LEVELS[0]!, to: LEVELS[2]!, direction: 'up' } },
  },
  {
    name: 'levelType points: from no level to the first',
    missions: [mission('m')],
    program: { levels: LEVELS.slice(1) },
    state: { lifetimeDefaultPoints: 95 },
    expected: { ...DONE, levelChanged: { from: null, to: LEVELS[1]!, direction: 'up' } },
  },
  { name: 'levelType points: not crossing', missions: [mission('m')], state: { lifetimeDefaultPoints: 50 }, expected: DONE },
  {
    name: 'levelType custom never changes level',
    missions: [mission('m')],
    program: { levelType: 'custom' },
    state: { lifetimeDefaultPoints: 95 },
    expected: DONE,
  },
  {
    name: 'points in a non-default category do not move the level',
    missions: [coins('m', 10)],
    state: { lifetimeDefaultPoints: 95 },
    expected: { ...DONE, points: [award('coins', 10)] },
  },
  {
    name: 'the level follows credited, not requested, points',
    missions: [mission('m')],
    program: { categories: [{ name: 'points', isDefault: true, dailyLimit: 100 }] },
    state: { lifetimeDefaultPoints: 95, earned: new Map([['points', { day: 100, year: 100 }]]) },
    expected: { ...DONE, points: [award('points', 10, 0)] },
  },
];

describe('evaluate', () => {
  it.each(cases)('$name', (c) => {
    const decision = evaluate(program(c.missions, c.program), c.party ?? 'user', partyState(c.state), event(c.event), c.options);
    const want = c.expected;
    expect(decision.recorded).toBe(want.recorded ?? true);
    expect(decision.reason).toBe(want.reason);
    expect(decision.completions.map((completion) => completion.missionId)).toEqual(want.completed);
    expect(decision.pointsAwarded).toEqual(want.points ?? []);
    expect(decision.completions.flatMap((completion) => completion.points)).toEqual(decision.pointsAwarded);
    expect(decision.progress.map((p) => [p.missionId, p.rules.map((r) => r.current), p.percentComplete])).toEqual(
      want.progress.map(([id, current, percent]) => [id, current, percent]),
    );
    want.progress.forEach(([id, , , windowStart]) => {
      if (windowStart !== undefined) expect(decision.progress.find((p) => p.missionId === id)?.windowStart).toBe(windowStart);
    });
    if (want.completions !== undefined) expect(decision.completions).toMatchObject(want.completions);
    expect(decision.levelChanged).toEqual(want.levelChanged);
  });

  it('reports progress per rule id, in rule order', () => {
    const decision = evaluate(program([runAndSwim('all')]), 'user', partyState(), event());
    expect(decision.progress).toEqual([
      {
        missionId: 'm',
        windowStart: 0,
        rules: [
          { ruleId: 'run', current: 1 },
          { ruleId: 'swim', current: 0 },
        ],
        percentComplete: 50,
      },
    ]);
  });

  it('finds missions through the index by lower-cased action name', () => {
    const m = mission('m', { rules: [rule('r', { action: 'RUN' })] });
    expect(
      evaluate(program([m]), 'user', partyState(), event({ action: { name: 'rUn', suppressRepeats: false } })).completions.map((c) => c.missionId),
    ).toEqual(['m']);
    expect(evaluate({ ...program([]), missionsByAction: new Map() }, 'user', partyState(), event())).toEqual({
      recorded: true,
      progress: [],
      completions: [],
      pointsAwarded: [],
    });
  });

  it('does not modify the state it is given', () => {
    const state = partyState({ missions: missions({ m: missionState({ r: 1 }) }), earned: new Map([['coins', { day: 170, year: 500 }]]) });
    const decision = evaluate(program([count3, coins('c', 50)]), 'user', state, event());
    expect(decision.progress.map((p) => p.rules[0]?.current)).toEqual([2, 0]);
    expect(decision.pointsAwarded).toEqual([award('coins', 50, 30)]);
    expect(state.missions.get('m')?.progress.get('r')).toBe(1);
    expect(state.earned.get('coins')).toEqual({ day: 170, year: 500 });
  });
});
