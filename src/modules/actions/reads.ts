// What a decision reads of a party's state, computed once per program version (the action path
// asks several times a decision). For one action (readsOf()), for any action of the party's type
// (wholeReadsOf(): what PostgreSQL's unlocked path reads at once), and the calendar windows of the
// event (windowsOf()).
import { calendarWindow } from '../../engine/calendar.js';
import { restrictsUsers } from '../../engine/elements/eligibility.js';
import type { EngineAction, EngineMission } from '../../engine/types.js';
import { LeaderboardService } from '../leaderboards/service.js';
import type { PartyKey } from '../ledger/write-set.js';
import { SYSTEM_ACTIONS } from '../program/model.js';
import type { ProgramSnapshot } from '../program/snapshot.js';
import { actionHasStreaks } from '../streaks/service.js';

/** The starts of the event's calendar day and year (site time zone): the windows of the caps. */
export interface Periods {
  day: number;
  year: number;
}

export type RateWindow = { start: number; end: number };

/** The calendar day and year of the event (site time zone: the windows of the caps), and the action's rate-limit window holding it (SPEC §5 step 4). */
export function windowsOf(snapshot: ProgramSnapshot, action: EngineAction, timestamp: number): { periods: Periods; rateWindow: RateWindow | undefined } {
  const zone = snapshot.engine.timezone;
  return {
    periods: { day: calendarWindow(timestamp, 'day', zone).start, year: calendarWindow(timestamp, 'year', zone).start },
    rateWindow: action.rateLimit === undefined ? undefined : calendarWindow(timestamp, action.rateLimit.period, zone),
  };
}

/** What a decision of a party of a type reads for an action (readsOf()). */
export interface Reads {
  /** The missions the action may advance for the party, and their prerequisites. */
  missions: readonly EngineMission[];
  prerequisiteIds: readonly string[];
  missionIds: readonly string[];
  /** The capped categories the missions reward: only those need what was earned in the day and year. */
  categories: readonly string[];
  /** The default category, when the missions reward it: only that moves a user's level. */
  lifetimeCategory: string | undefined;
  /** The user's groups are needed: group missions, group prerequisites, group-filtered boards. */
  groups: boolean;
  /** A group mission may move: the user's groups are locked with them. */
  groupMissions: boolean;
  /** The user's assigned level is needed (custom levels, a mission with a minimum level): the party row read now has it. */
  assignedLevel: boolean;
  /** The action may count for a streak of the user's (on it, or on a mission it advances): the user's streak days are needed. */
  streaks: boolean;
}

/** readsOf() per program snapshot (immutable), by party type and action: the action path asks for it several times a decision. */
const readsBySnapshot = new WeakMap<ProgramSnapshot, Map<string, Reads>>();

/** What a decision of a party of this type reads of its state for the action (computed once per program version). */
export function readsOf(snapshot: ProgramSnapshot, partyType: PartyKey['type'], actionName: string): Reads {
  let bySnapshot = readsBySnapshot.get(snapshot);
  if (bySnapshot === undefined) {
    bySnapshot = new Map();
    readsBySnapshot.set(snapshot, bySnapshot);
  }
  const key = `${partyType}\u0000${actionName.toLowerCase()}`;
  let reads = bySnapshot.get(key);
  if (reads === undefined) {
    const candidates = snapshot.engine.missionsByAction.get(actionName.toLowerCase()) ?? [];
    const missions = candidates.filter((mission) => mission.party === partyType);
    const prerequisiteIds = [...new Set(missions.flatMap((mission) => mission.prerequisites.missions))];
    const rewarded = new Set(missions.flatMap((mission) => mission.rewards.points.map((reward) => reward.category)));
    const defaultCategory = snapshot.engine.categories.find((category) => category.isDefault)?.name;
    const groupMissions = candidates.some((mission) => mission.party === 'group');
    const restricted = userRestrictions(snapshot, partyType, missions);
    reads = {
      missions,
      prerequisiteIds,
      missionIds: missions.length === 0 ? [] : [...missions.map((mission) => mission.id), ...prerequisiteIds],
      categories:
        missions.length === 0
          ? []
          : snapshot.engine.categories.filter((c) => rewarded.has(c.name) && (c.dailyLimit !== undefined || c.yearlyLimit !== undefined)).map((c) => c.name),
      lifetimeCategory:
        partyType === 'user' && defaultCategory !== undefined && (rewarded.has(defaultCategory) || restricted.lifetime) ? defaultCategory : undefined,
      groups:
        partyType === 'user' &&
        (groupMissions ||
          restricted.groups ||
          candidates.some((mission) => mission.prerequisites.groups.length > 0) ||
          LeaderboardService.needsGroups(snapshot.program)),
      groupMissions,
      assignedLevel: restricted.assignedLevel,
      streaks: partyType === 'user' && actionHasStreaks(snapshot, actionName),
    };
    bySnapshot.set(key, reads);
  }
  return reads;
}

/**
 * What a user's missions' minimum levels, excluded groups and the program's group boosts need read
 * (src/engine/elements/eligibility.ts, boosts.ts): nothing for a program that uses none of them.
 */
function userRestrictions(snapshot: ProgramSnapshot, partyType: PartyKey['type'], missions: readonly EngineMission[]) {
  if (partyType !== 'user' || missions.length === 0) return { lifetime: false, assignedLevel: false, groups: false };
  const restrictions = missions.map(restrictsUsers);
  const level = restrictions.some((r) => r.level);
  return {
    lifetime: level && snapshot.engine.levelType === 'points',
    assignedLevel: level && snapshot.engine.levelType === 'custom',
    groups: restrictions.some((r) => r.groups) || (snapshot.engine.boosts ?? []).some((boost) => boost.groups.length > 0),
  };
}

/** What a decision of a party of the type may read, whatever its action (wholeReadsOf()). */
export interface WholeReads {
  missionIds: readonly string[];
  /** Every capped category. */
  categories: readonly string[];
  lifetimeCategory: string | undefined;
  groups: boolean;
  /** The rate-limited actions, with their windows' period. */
  rated: ReadonlyArray<{ name: string; period: NonNullable<EngineAction['rateLimit']>['period'] }>;
  /** Every streak of the program, for a user (none for a group). */
  streakIds: readonly string[];
}

const wholeReadsBySnapshot = new WeakMap<ProgramSnapshot, Map<PartyKey['type'], WholeReads>>();

/** The union of readsOf() over every action, for the party type (computed once per program version). */
export function wholeReadsOf(snapshot: ProgramSnapshot, partyType: PartyKey['type']): WholeReads {
  let byType = wholeReadsBySnapshot.get(snapshot);
  if (byType === undefined) {
    byType = new Map();
    wholeReadsBySnapshot.set(snapshot, byType);
  }
  let whole = byType.get(partyType);
  if (whole === undefined) {
    const actions = [...snapshot.actionsByName.values(), ...SYSTEM_ACTIONS.map((name): EngineAction => ({ name, suppressRepeats: false }))];
    const each = actions.map((action) => readsOf(snapshot, partyType, action.name));
    whole = {
      missionIds: [...snapshot.missionsById.keys()],
      categories: [...new Set(each.flatMap((reads) => reads.categories))],
      lifetimeCategory: each.find((reads) => reads.lifetimeCategory !== undefined)?.lifetimeCategory,
      groups: each.some((reads) => reads.groups),
      rated: actions.flatMap((action) => (action.rateLimit === undefined ? [] : [{ name: action.name, period: action.rateLimit.period }])),
      streakIds: partyType === 'user' ? (snapshot.program.streaks ?? []).map((streak) => streak.id) : [],
    };
    byType.set(partyType, whole);
  }
  return whole;
}
