// Mission reads (SPEC §6): a party's eligible and completed missions and its progress in one.
// Every read is bounded by the program's size (the party's progress rows, completion counts per
// mission and window, memberships), never by the party's history.
import { calendarWindow, localDateTimeEndInstant, localDateTimeToInstant } from '../../engine/calendar.js';
import { hasReached } from '../../engine/elements/eligibility.js';
import { isRepeatable, isWithinDates, percentComplete } from '../../engine/elements/missions.js';
import type { Db } from '../../db/index.js';
import type { PartyType } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { MissionDocument, ProgramDocument } from '../program/model.js';
import type { GroupService } from '../groups/service.js';
import type { ProgramService } from '../program/service.js';
import { rank } from './ranking.js';
import { MissionsRepository } from './repository.js';
import { isHiddenFromUser, missionsVisibleTo } from './visibility.js';

interface PartyMissionState {
  groups: Set<string>;
  /** Live completions per mission: total, in the mission's current window, last one. */
  completions: Map<string, { total: number; inWindow: number; last: number }>;
  /** Current progress per mission and rule, in the current window only. */
  progress: Map<string, Map<string, number>>;
  supplyUsed: Map<string, number>;
  /** What says which levels the user has reached: read only when a mission names a minimum level. */
  level: { lifetimeDefaultPoints: number; assignedLevel: string | null } | undefined;
}

function currentWindow(mission: MissionDocument, now: number): { start: number; end: number } | null {
  const period = mission.repeatableWindow?.period;
  if (period === undefined || period === 'none') return null;
  return calendarWindow(now, period, mission.timezone);
}

function isFeatured(mission: MissionDocument, now: number): boolean {
  if (mission.featuredStartDate === undefined && mission.featuredEndDate === undefined) return false;
  const start = mission.featuredStartDate === undefined ? -Infinity : localDateTimeToInstant(mission.featuredStartDate, mission.timezone);
  const end = mission.featuredEndDate === undefined ? Infinity : localDateTimeEndInstant(mission.featuredEndDate, mission.timezone);
  return now >= start && now <= end;
}

/** The user is a member of a group the mission excludes: they neither see nor advance it. */
function isExcluded(mission: MissionDocument, state: Pick<PartyMissionState, 'groups'>): boolean {
  return (mission.prerequisites.excludedGroups ?? []).some((group) => state.groups.has(group));
}

/** The name of the minimum level the user has yet to reach for the mission, if any (src/engine/elements/eligibility.ts judges). */
function levelToReach(program: ProgramDocument, mission: MissionDocument, state: Pick<PartyMissionState, 'level'>): string | undefined {
  const { minLevel } = mission.prerequisites;
  if (minLevel === undefined || state.level === undefined) return undefined;
  if (hasReached({ levelType: program.site.levelType, levels: program.levels }, minLevel, state.level)) return undefined;
  return program.levels.find((level) => level.id === minLevel)?.name ?? minLevel;
}

/**
 * A user's level as eligibility reads it (the profile's service). Declared here, so that the
 * missions do not depend on the profile module, whose at-a-glance read depends on them.
 */
export interface LevelStateReader {
  levelState(siteId: string, userId: string): Promise<{ lifetimeDefaultPoints: number; assignedLevel: string | null }>;
}

export class MissionReadService {
  readonly #repository: MissionsRepository;

  constructor(
    db: Db,
    private readonly programs: ProgramService,
    private readonly groups: GroupService,
    private readonly clock: () => number,
    private readonly profiles: LevelStateReader,
  ) {
    this.#repository = new MissionsRepository(db);
  }

  /**
   * The mission definitions the user may see (GET /challenges for a user-level token): none hidden
   * from them, none excluding one of their groups, no hidden_until_unlocked one below its level.
   */
  async definitionsVisibleTo(siteId: string, userId: string): Promise<MissionDocument[]> {
    const { program } = await this.programs.snapshot(siteId);
    const excluding = program.missions.some((m) => (m.prerequisites.excludedGroups ?? []).length > 0);
    const leveled = program.missions.some((m) => m.prerequisites.minLevel !== undefined && m.hidden === 'hidden_until_unlocked');
    const [completed, groups, level] = await Promise.all([
      this.#repository.completedBy(siteId, userId),
      excluding ? this.groups.ofUser(siteId, userId) : [],
      leveled ? this.profiles.levelState(siteId, userId) : undefined,
    ]);
    const state = { groups: new Set(groups), level } as Pick<PartyMissionState, 'groups' | 'level'>;
    return missionsVisibleTo(program.missions, completed).filter(
      (mission) => !isExcluded(mission, state) && !(mission.hidden === 'hidden_until_unlocked' && levelToReach(program, mission, state) !== undefined),
    );
  }

  private async state(siteId: string, type: PartyType, id: string, missions: readonly MissionDocument[], now: number): Promise<PartyMissionState> {
    const party = { siteId, type, id };
    const [groups, totals, recent, progress, supply, level] = await Promise.all([
      type === 'user' ? this.groups.ofUser(siteId, id) : [],
      this.#repository.completionTotals(party),
      // Completions in windows that may be current: the earliest current window start bounds the read.
      this.#repository.recentCompletions(party, Math.min(...missions.map((m) => currentWindow(m, now)?.start ?? Infinity), Number.MAX_SAFE_INTEGER)),
      this.#repository.progress(party),
      this.#repository.supplyUsed(siteId),
      type === 'user' && missions.some((m) => m.prerequisites.minLevel !== undefined) ? this.profiles.levelState(siteId, id) : undefined,
    ]);
    const byId = new Map(missions.map((m) => [m.id, m]));
    const completions = new Map<string, { total: number; inWindow: number; last: number }>();
    for (const row of totals) completions.set(row.mission_id, { total: Number(row.n), inWindow: 0, last: Number(row.last) });
    for (const row of recent) {
      const mission = byId.get(row.mission_id);
      const entry = completions.get(row.mission_id);
      if (mission !== undefined && entry !== undefined && currentWindow(mission, now)?.start === Number(row.window_start)) entry.inWindow += Number(row.n);
    }
    const progressByMission = new Map<string, Map<string, number>>();
    for (const row of progress) {
      const mission = byId.get(row.mission_id);
      if (mission === undefined) continue;
      // Progress of an earlier window counts as none.
      if (Number(row.window_start) !== (currentWindow(mission, now)?.start ?? 0)) continue;
      const rules = progressByMission.get(row.mission_id) ?? new Map<string, number>();
      rules.set(row.rule_id, Number(row.current));
      progressByMission.set(row.mission_id, rules);
    }
    return {
      groups: new Set(groups),
      completions,
      progress: progressByMission,
      supplyUsed: new Map(supply.map((row) => [row.mission_id, Number(row.used)])),
      level,
    };
  }

  /** A one-time mission, once completed, is done: it reads as complete rather than as restarted. */
  private isDone(mission: MissionDocument, state: PartyMissionState): boolean {
    return !isRepeatable(mission) && (state.completions.get(mission.id)?.total ?? 0) > 0;
  }

  private summary(mission: MissionDocument, state: PartyMissionState, now: number) {
    return {
      id: mission.id,
      name: mission.name,
      description: mission.description,
      iconUrl: mission.iconUrl,
      startDate: mission.startDate,
      endDate: mission.endDate,
      featuredStartDate: mission.featuredStartDate,
      featuredEndDate: mission.featuredEndDate,
      timezone: mission.timezone,
      featured: isFeatured(mission, now),
      repeatable: isRepeatable(mission),
      rewards: mission.rewards,
      importance: mission.importance,
      percentComplete: this.isDone(mission, state) ? 100 : percentComplete(mission, state.progress.get(mission.id) ?? new Map()),
    };
  }

  /** SPEC §6 eligible: active, group prerequisites met, completable now, not hidden for this party. */
  async eligible(siteId: string, type: PartyType, id: string) {
    return (await this.eligibleWithState(siteId, type, id)).entries.map((entry) => entry.summary);
  }

  /** The eligible list ordered by the recommendation score (src/modules/missions/ranking.ts), each with its score and reasons. */
  async ranked(siteId: string, userId: string) {
    const { entries, state, now } = await this.eligibleWithState(siteId, 'user', userId);
    const inputs = entries.map(({ mission, summary }) => {
      const prerequisitesDone = mission.prerequisites.missions.map((m) => state.completions.get(m)?.last ?? -Infinity);
      return {
        ...summary,
        locked: summary.locked,
        endsAt: mission.endDate === undefined ? undefined : localDateTimeEndInstant(mission.endDate, mission.timezone),
        unlockedAt: prerequisitesDone.length > 0 && summary.locked === false ? Math.max(...prerequisitesDone) : undefined,
        rewardPoints: mission.rewards.points.reduce((sum, reward) => sum + reward.amount, 0),
      };
    });
    return rank(inputs, now).map(({ endsAt: _endsAt, unlockedAt: _unlockedAt, rewardPoints: _rewardPoints, ...mission }) => mission);
  }

  private async eligibleWithState(siteId: string, type: PartyType, id: string) {
    const { program } = await this.programs.snapshot(siteId);
    const now = this.clock();
    const missions = program.missions.filter((m) => m.party === type);
    const state = await this.state(siteId, type, id, missions, now);
    const completedIds = new Set([...state.completions.keys()]);
    const entries = missions.flatMap((mission) => {
      if (mission.hidden === 'always_hidden' || mission.hidden === 'hidden_until_earned') return [];
      if (!isWithinDates(mission, now)) return [];
      if (!mission.prerequisites.groups.every((g) => state.groups.has(g))) return [];
      if (mission.supply !== undefined && (state.supplyUsed.get(mission.id) ?? 0) >= mission.supply) return [];
      const completions = state.completions.get(mission.id);
      if (!isRepeatable(mission) && (completions?.total ?? 0) > 0) return [];
      const max = mission.repeatableWindow?.maxPerPeriod;
      if (
        isRepeatable(mission) &&
        max !== undefined &&
        (mission.repeatableWindow?.period === 'none' ? (completions?.total ?? 0) : (completions?.inWindow ?? 0)) >= max
      )
        return [];
      if (isExcluded(mission, state)) return [];
      const missing = mission.prerequisites.missions.filter((m) => !completedIds.has(m));
      const level = levelToReach(program, mission, state);
      if ((missing.length > 0 || level !== undefined) && mission.hidden === 'hidden_until_unlocked') return [];
      const names = missing.map((m) => program.missions.find((p) => p.id === m)?.name ?? m);
      const reasons = [...(missing.length > 0 ? [`Complete first: ${names.join(', ')}`] : []), ...(level !== undefined ? [`Reach level ${level}`] : [])];
      const summary = {
        ...this.summary(mission, state, now),
        locked: reasons.length > 0,
        ...(reasons.length > 0 ? { lockedReason: reasons.join('; ') } : {}),
      };
      return [{ mission, summary }];
    });
    return { entries, state, now, missions };
  }

  /** Completed missions (never always_hidden) with how often and when last. */
  async completed(siteId: string, type: PartyType, id: string) {
    const { program } = await this.programs.snapshot(siteId);
    const now = this.clock();
    const missions = program.missions.filter((m) => m.party === type);
    const state = await this.state(siteId, type, id, missions, now);
    return this.completedOf(missions, state, now);
  }

  /** What at-a-glance counts (SPEC §7): eligible, eligible with some progress, completed; the party's state read once for all three. */
  async counts(siteId: string, type: PartyType, id: string): Promise<{ eligible: number; inProgress: number; completed: number }> {
    const { entries, state, now, missions } = await this.eligibleWithState(siteId, type, id);
    return {
      eligible: entries.length,
      inProgress: entries.filter((entry) => entry.summary.percentComplete > 0).length,
      completed: this.completedOf(missions, state, now).length,
    };
  }

  private completedOf(missions: readonly MissionDocument[], state: PartyMissionState, now: number) {
    return missions.flatMap((mission) => {
      const completions = state.completions.get(mission.id);
      if (completions === undefined || mission.hidden === 'always_hidden') return [];
      return [{ ...this.summary(mission, state, now), completionCount: completions.total, lastCompletedAt: new Date(completions.last).toISOString() }];
    });
  }

  /** One mission's progress for the party: per rule, overall, completions and the current window. */
  async progress(siteId: string, type: PartyType, id: string, missionId: string, visibleToUser: boolean) {
    const { program } = await this.programs.snapshot(siteId);
    const mission = program.missions.find((m) => m.id === missionId && m.party === type);
    const now = this.clock();
    const state = mission === undefined ? undefined : await this.state(siteId, type, id, [mission], now);
    const completedIds = new Set(state === undefined ? [] : [...state.completions.keys()]);
    // A user-level token learns nothing of a mission hidden from its user.
    const hidden =
      mission !== undefined &&
      state !== undefined &&
      visibleToUser &&
      (isHiddenFromUser(mission, (m) => completedIds.has(m)) ||
        isExcluded(mission, state) ||
        (mission.hidden === 'hidden_until_unlocked' && levelToReach(program, mission, state) !== undefined));
    if (mission === undefined || state === undefined || hidden) throw new AppError('not_found', `No challenge "${missionId}" for this ${type}`);
    const done = this.isDone(mission, state);
    const rules = done ? new Map(mission.rules.map((rule) => [rule.id, rule.goal])) : (state.progress.get(mission.id) ?? new Map<string, number>());
    const window = currentWindow(mission, now);
    return {
      challengeId: mission.id,
      rules: mission.rules.map((rule) => ({
        ruleId: rule.id,
        action: rule.action,
        goal: rule.goal,
        current: rules.get(rule.id) ?? 0,
        achieved: (rules.get(rule.id) ?? 0) >= rule.goal,
      })),
      percentComplete: done ? 100 : percentComplete(mission, rules),
      completionCount: state.completions.get(mission.id)?.total ?? 0,
      window: window === null ? null : { start: new Date(window.start).toISOString(), end: new Date(window.end).toISOString() },
    };
  }
}
