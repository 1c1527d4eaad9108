// Who may take part in a mission beyond its prerequisites (docs/missions.md, "Prerequisites"):
// members of an excluded group never see nor advance it, and a minimum level holds the mission back
// until the user has reached that level. Both judge the user: a group's own missions (which no
// level or membership describes) are not restricted by them.
import { levelFor } from './levels.js';
import type { EngineMission, EngineProgram, Party, PartyState } from '../types.js';

/** The mission names a minimum level or excluded groups: the user's level or groups are needed to judge it. */
export function restrictsUsers(mission: EngineMission): { level: boolean; groups: boolean } {
  return { level: mission.prerequisites.minLevel !== undefined, groups: (mission.prerequisites.excludedGroups?.length ?? 0) > 0 };
}

/** The party is in none of the mission's excluded groups and has reached its minimum level. */
export function isEligible(program: EngineProgram, mission: EngineMission, party: Party, state: PartyState): boolean {
  if (party !== 'user') return true;
  const { minLevel, excludedGroups } = mission.prerequisites;
  if (excludedGroups !== undefined && excludedGroups.some((group) => state.groups.has(group))) return false;
  return minLevel === undefined || hasReached(program, minLevel, state);
}

/**
 * The user has reached the level: with levelType points, their lifetime points in the default
 * category reach its threshold; with custom levels, the level an admin assigned them is at or above
 * it (no level assigned: the lowest level, as profiles show it). An unknown level is never reached.
 */
export function hasReached(
  program: Pick<EngineProgram, 'levelType' | 'levels'>,
  levelId: string,
  state: Pick<PartyState, 'lifetimeDefaultPoints' | 'assignedLevel'>,
): boolean {
  const required = program.levels.find((level) => level.id === levelId);
  if (required === undefined) return false;
  if (program.levelType === 'points') return state.lifetimeDefaultPoints >= required.threshold;
  const assigned = state.assignedLevel == null ? levelFor(program.levels, 0) : program.levels.find((level) => level.id === state.assignedLevel);
  return assigned !== undefined && assigned !== null && program.levels.indexOf(assigned) >= program.levels.indexOf(required);
}
