// Fixtures of the engine's table-driven tests (evaluate.test.ts, boosts.test.ts): a program in Los
// Angeles with points (the default) and capped coins, three levels, user missions with one `run`
// rule, and an empty party state, each with the overrides a row needs.
import type { EngineMission, EngineProgram, PartyState } from '../../src/engine/types.js';

export const LA = 'America/Los_Angeles';
export const at = (value: string) => Date.parse(value);
/** Monday 15 June 2026, 11:00 in Los Angeles. */
export const NOW = at('2026-06-15T18:00:00Z');
export const LEVELS = [
  { id: 'l1', name: 'Rookie', threshold: 0 },
  { id: 'l2', name: 'Regular', threshold: 100 },
  { id: 'l3', name: 'Expert', threshold: 500 },
];

export type Rule = EngineMission['rules'][number];
export const rule = (id: string, overrides: Partial<Rule> = {}): Rule => ({ id, action: 'run', type: 'count', goal: 1, metadata: [], ...overrides });

/** A user mission in Los Angeles: one `run` rule (goal 1) and 10 points in the default category. */
export function mission(id: string, overrides: Partial<EngineMission> = {}): EngineMission {
  return {
    id,
    name: `Mission ${id}`,
    timezone: LA,
    prerequisites: { groups: [], missions: [] },
    party: 'user',
    ruleMatch: 'all',
    rules: [rule(`${id}.r1`)],
    rewards: { points: [{ category: 'points', amount: 10 }] },
    importance: 0,
    ...overrides,
  };
}

/** Missions indexed by lower-cased action name, as src/modules/program/snapshot.ts builds them; coins capped at 200 a day, 1000 a year. */
export function program(missions: readonly EngineMission[], overrides: Partial<EngineProgram> = {}): EngineProgram {
  const missionsByAction = new Map<string, EngineMission[]>();
  for (const m of missions) {
    for (const action of new Set(m.rules.map((r) => r.action.toLowerCase()))) missionsByAction.set(action, [...(missionsByAction.get(action) ?? []), m]);
  }
  return {
    timezone: LA,
    levelType: 'points',
    categories: [
      { name: 'points', isDefault: true },
      { name: 'coins', isDefault: false, dailyLimit: 200, yearlyLimit: 1000 },
    ],
    levels: LEVELS,
    missionsByAction,
    ...overrides,
  };
}

/** A party with nothing recorded: no groups, missions, earnings or lifetime points. */
export function partyState(overrides: Partial<PartyState> = {}): PartyState {
  return {
    recordedInRateWindow: 0,
    groups: new Set(),
    completedMissions: new Set(),
    missions: new Map(),
    supplyRemaining: new Map(),
    earned: new Map(),
    lifetimeDefaultPoints: 0,
    ...overrides,
  };
}
