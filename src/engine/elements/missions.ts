// SPEC §5 step 6: which missions an action advances, and whether it completes them.
import { calendarWindow, localDateTimeEndInstant, localDateTimeToInstant } from '../calendar.js';
import type { ActionEvent, EngineMission, EngineRule, MissionState, PartyState } from '../types.js';

const dateRanges = new WeakMap<EngineMission, { start: number; end: number }>();

/** The mission's [start, end] as instants: local dates read in the mission's time zone, the end second included. */
function dateRange(mission: EngineMission): { start: number; end: number } {
  let range = dateRanges.get(mission);
  if (range === undefined) {
    range = {
      start: mission.startDate === undefined ? -Infinity : localDateTimeToInstant(mission.startDate, mission.timezone),
      end: mission.endDate === undefined ? Infinity : localDateTimeEndInstant(mission.endDate, mission.timezone),
    };
    dateRanges.set(mission, range);
  }
  return range;
}

/** The timestamp lies within the mission's dates (a backdated action inside them counts even after expiry). */
export function isWithinDates(mission: EngineMission, timestamp: number): boolean {
  const { start, end } = dateRange(mission);
  return timestamp >= start && timestamp <= end;
}

/** Group memberships and completed prerequisite missions all hold. */
export function prerequisitesHold(mission: EngineMission, state: PartyState): boolean {
  return (
    mission.prerequisites.groups.every((group) => state.groups.has(group)) && mission.prerequisites.missions.every((id) => state.completedMissions.has(id))
  );
}

export function isRepeatable(mission: EngineMission): boolean {
  return mission.repeatableWindow !== undefined;
}

/** The start of the mission's repeat window holding `timestamp` (0 when there is one window for all time). */
export function windowStart(mission: EngineMission, timestamp: number): number {
  const period = mission.repeatableWindow?.period;
  if (period === undefined || period === 'none') return 0;
  return calendarWindow(timestamp, period, mission.timezone).start;
}

/** The mission may complete (again): non-repeatable ones once ever, repeatable ones maxPerPeriod times per window. */
export function mayComplete(mission: EngineMission, state: MissionState | undefined): boolean {
  if (!isRepeatable(mission)) return (state?.completionsTotal ?? 0) === 0;
  const max = mission.repeatableWindow?.maxPerPeriod;
  return max === undefined || (state?.completionsInWindow ?? 0) < max;
}

/** The rule is on this action and every metadata condition matches (names and values case-insensitively). */
export function ruleMatches(rule: EngineRule, event: ActionEvent): boolean {
  if (rule.action.toLowerCase() !== event.action.name.toLowerCase()) return false;
  if (rule.metadata.length === 0) return true;
  const given = new Map(Object.entries(event.metadata).map(([name, value]) => [name.toLowerCase(), value.toLowerCase()]));
  return rule.metadata.every((condition) => given.get(condition.name.toLowerCase()) === condition.value.toLowerCase());
}

export function percentComplete(mission: EngineMission, progress: ReadonlyMap<string, number>): number {
  const fractions = mission.rules.map((rule) => Math.min(1, Math.max(0, (progress.get(rule.id) ?? 0) / rule.goal)));
  const fraction = mission.ruleMatch === 'all' ? fractions.reduce((sum, f) => sum + f, 0) / fractions.length : Math.max(...fractions);
  return Math.floor(fraction * 100);
}

/** Adds the event to the matching rules' progress; says whether the rules are now met. */
export function advance(mission: EngineMission, previous: ReadonlyMap<string, number>, event: ActionEvent): { progress: Map<string, number>; met: boolean } {
  const progress = new Map<string, number>();
  for (const rule of mission.rules) {
    const current = previous.get(rule.id) ?? 0;
    // Sums are kept to 15 significant digits so that 0.7 + 0.1 reaches a goal of 0.8.
    progress.set(rule.id, ruleMatches(rule, event) ? Number((current + (rule.type === 'count' ? 1 : event.value)).toPrecision(15)) : current);
  }
  const reached = mission.rules.map((rule) => (progress.get(rule.id) ?? 0) >= rule.goal);
  return { progress, met: mission.ruleMatch === 'all' ? reached.every(Boolean) : reached.some(Boolean) };
}
