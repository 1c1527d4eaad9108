// Reversals (SPEC §12): an admin takes back a recorded action, or the latest completion of a
// mission, with every effect, in one transaction with the user and the groups the action involved
// locked. A removed completion's points are debited in full (the balance may go below zero; what
// of them expired is not taken again, docs/points.md), its
// badge leaves the trophy case when nothing that awarded it is left (its other live completions, a
// streak milestone, a prize), its supply unit returns, its
// mission's progress restarts from zero, the level follows the lifetime points again, boards lose
// the points in the windows where they were earned, and a `mission.completed` event with
// `completionStatus: "removed"` goes out. Reversing twice changes nothing the second time.
import { calendarWindow } from '../../engine/calendar.js';
import type { ScoreChange } from '../../engine/elements/leaderboards.js';
import { levelFor } from '../../engine/elements/levels.js';
import { ruleMatches, windowStart } from '../../engine/elements/missions.js';
import type { ActionEvent, EngineLevel } from '../../engine/types.js';
import type { Database, Trx } from '../../db/index.js';
import type { ActionEventsTable, MissionCompletionsTable, PointsLedgerTable } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { uuidv7 } from '../../uuid.js';
import { mirrorPoints } from '../ledger/award-entries.js';
import type { GroupService } from '../groups/service.js';
import { LeaderboardService } from '../leaderboards/service.js';
import type { ProgramService } from '../program/service.js';
import type { ProgramSnapshot } from '../program/snapshot.js';
import { uncountStreaks, type StreakDayCounted } from '../streaks/service.js';
import type { ActionOutcome } from './service.js';
import { changeLevel, type LevelCause, type PresentedLevelChange } from '../ledger/level-changes.js';
import type { Decided, Locked } from '../ledger/locked.js';
import type { LedgerRepository } from '../ledger/repository.js';
import { lifetimeDelta, type PartyKey, type WriteSet } from '../ledger/write-set.js';
import type { ScoreRow } from '../ledger/written.js';
import type { ActionsRepository } from './repository.js';

export interface RemovedCompletion {
  id: string;
  name: string;
  completionId: string;
  userId?: string;
  groupId?: string;
  /** What was debited from the party's balances. */
  points: Array<{ category: string; amount: number }>;
}

export interface Reversal {
  eventId?: string;
  /** True when this reversal had already been made: nothing changed now. */
  alreadyReversed: boolean;
  completionsRemoved: RemovedCompletion[];
  /** The user's debits, per category. */
  pointsDebited: Array<{ category: string; amount: number }>;
  /** The user's balances after the reversal in the categories it debited. */
  balances: Array<{ category: string; balance: number }>;
  /** Categories whose balance the debits took below zero. */
  negativeBalances: string[];
  levelChanged?: PresentedLevelChange;
  /** A preview's answer only (dryRun): the trophy case entries the removals recount, and how many earnings of each are left (0: the badge leaves the case). */
  badgesTakenBack?: Array<{ id: string; name: string; left: number; userId?: string; groupId?: string }>;
  /** A preview's answer only (dryRun): the board scores the reversal moves, by how much, and to what. */
  boardScores?: Array<{ leaderboardId: string; name: string; windowStart: string; partyId: string; change: number; score: number }>;
}

/** A preview's reversal, decided and written in its transaction, then rolled back. */
class Preview extends Error {
  constructor(readonly reversal: Reversal) {
    super('reversal preview');
  }
}

type Completion = MissionCompletionsTable;

export class ReversalService {
  constructor(
    private readonly database: Pick<Database, 'db' | 'transaction'>,
    private readonly repository: ActionsRepository,
    private readonly ledger: LedgerRepository,
    private readonly programs: ProgramService,
    private readonly leaderboards: LeaderboardService,
    private readonly groups: GroupService,
    private readonly clock: () => number,
    private readonly expiry?: ReversibleCredits,
  ) {}

  /**
   * DELETE /users/{userId}/actions/{eventId}: the action and everything it caused. With `dryRun`,
   * the same reversal is decided and written in a transaction that is rolled back: what it would
   * take back, changing nothing.
   */
  async reverseAction(siteId: string, userId: string, eventId: string, dryRun = false): Promise<Reversal> {
    const snapshot = await this.programs.snapshot(siteId);
    const event = await this.repository.findEvent({ db: this.database.db }, siteId, eventId);
    // Another user's event reads as absent (nothing about it is revealed).
    if (event === undefined || event.party_type !== 'user' || event.party_id !== userId)
      throw new AppError('not_found', `User "${userId}" has no action "${eventId}"`);
    if (event.reversal !== null) return { ...(JSON.parse(event.reversal) as Reversal), alreadyReversed: true };

    const causedGroups = await this.repository.groupsCompletedBy({ db: this.database.db }, siteId, eventId);
    const groupIds = [...new Set([...(event.groups === null ? [] : (JSON.parse(event.groups) as string[])), ...causedGroups])];
    const user: PartyKey = { siteId, type: 'user', id: userId };
    const groups: PartyKey[] = groupIds.map((id) => ({ siteId, type: 'group', id }));
    return this.decided(snapshot, [...groups, user], (locked) => this.decideReversal(locked, snapshot, event, user, groups), dryRun);
  }

  /**
   * DELETE /users/{userId}/challenges/{challengeId}/completions/latest: the user's latest live
   * completion of the mission, or exactly `completionId` when given (which makes a retried request
   * change nothing the second time).
   */
  async removeLatestCompletion(siteId: string, userId: string, missionId: string, completionId?: string): Promise<Reversal> {
    const snapshot = await this.programs.snapshot(siteId);
    const user: PartyKey = { siteId, type: 'user', id: userId };
    return this.decided(snapshot, [user], async (locked) => {
      const completion = await this.repository.latestCompletion(locked.trx, user, missionId, completionId);
      if (completion === undefined) {
        throw new AppError(
          'not_found',
          completionId !== undefined
            ? `User "${userId}" has no completion "${completionId}" of "${missionId}"`
            : `User "${userId}" has no completion of "${missionId}" to remove`,
        );
      }
      const result = emptyReversal();
      if (completion.removed_at !== null) return { writes: locked.writes, answer: { ...result, alreadyReversed: true } };
      const changes: ScoreChange[] = [];
      result.completionsRemoved.push(await this.removeCompletion(locked, snapshot, user, completion, changes));
      await this.settleUser(locked, snapshot, user, result, { removedCompletionId: completion.completion_id });
      await this.moveScores(locked, snapshot, user, [], new Map([[partyName(user), changes]]));
      return { writes: locked.writes, answer: result };
    });
  }

  /** One decision under lock of the parties (LedgerRepository.write), in its own transaction; board scores published after the commit. */
  private async decided(
    snapshot: ProgramSnapshot,
    parties: PartyKey[],
    decide: (locked: Locked) => Promise<Decided<Reversal>>,
    dryRun = false,
  ): Promise<Reversal> {
    try {
      const { answer, scores } = await this.database.transaction(async (trx) => {
        let writes: WriteSet | undefined;
        const written = await this.ledger.write(trx, { parties, now: this.clock(), destinations: snapshot.destinations }, async (locked) => {
          const decided = await decide(locked);
          writes = decided.writes;
          return decided;
        });
        if (dryRun) throw new Preview(previewOf(written.answer, writes as WriteSet, written.scores, snapshot));
        return written;
      });
      await this.leaderboards.publish(LeaderboardService.updates(snapshot.siteId, scores));
      return answer;
    } catch (error) {
      if (error instanceof Preview) return error.reversal;
      throw error;
    }
  }

  /** The event's reversal, decided with its user and groups locked: what it advanced, what it completed, and the user's balances and level after. */
  private async decideReversal(
    locked: Locked,
    snapshot: ProgramSnapshot,
    event: ActionEventsTable,
    user: PartyKey,
    groups: PartyKey[],
  ): Promise<Decided<Reversal>> {
    const { trx, writes, now } = locked;
    const { site_id: siteId, event_id: eventId } = event;
    const stored = await this.repository.storedReversal(trx, siteId, eventId);
    if (stored !== null) return { writes, answer: { ...(JSON.parse(stored) as Reversal), alreadyReversed: true } };

    const result = emptyReversal(eventId);
    const changes = new Map<string, ScoreChange[]>([[partyName(user), []], ...groups.map((g): [string, ScoreChange[]] => [partyName(g), []])]);
    if (event.recorded === 1) {
      // Its contribution to missions it advanced without completing them, then what it completed, latest first.
      const completions = await this.repository.liveCompletionsOf(trx, siteId, eventId);
      for (const party of [user, ...groups]) await this.takeBackProgress(locked, snapshot, party, event, completions);
      completions.sort((a, b) => Number(b.recorded_at) - Number(a.recorded_at) || (a.completion_id < b.completion_id ? 1 : -1));
      const kept = keptStreakDays(event);
      for (const completion of completions) {
        const party: PartyKey = { siteId, type: completion.party_type, id: completion.party_id };
        result.completionsRemoved.push(
          await this.removeCompletion(locked, snapshot, party, completion, changes.get(partyName(party)) as ScoreChange[], { days: kept }),
        );
      }
      changes.get(partyName(user))?.push({ kind: 'action', action: event.action, value: Number(event.value), at: Number(event.occurred_at), undo: true });
      uncountStreaks(writes, user, { action: event.action }, kept);
      await this.settleUser(locked, snapshot, user, result, { reversedEventId: eventId });
    }
    writes.markReversed(siteId, eventId, now, JSON.stringify(result));
    await this.moveScores(locked, snapshot, user, groups, changes);
    return { writes, answer: result };
  }

  /** Removes one live completion with its effects on the party; returns it as the response shows it. */
  private async removeCompletion(
    locked: Locked,
    snapshot: ProgramSnapshot,
    party: PartyKey,
    completion: Completion,
    changes: ScoreChange[],
    /** The streak days its event kept it counted (read here when not given: a completion removed on its own). */
    kept?: { days: StreakDayCounted[] },
  ): Promise<RemovedCompletion> {
    const { trx, writes, now } = locked;
    const { siteId } = party;
    const completedAt = Number(completion.completed_at);
    writes.removeCompletion(siteId, completion.completion_id, now);
    if (party.type === 'user') uncountStreaks(writes, party, { missionId: completion.mission_id }, kept?.days ?? (await this.keptFor(locked, completion)));
    // The credits go back in full, dated like the credits, so that caps give the allowance back
    // in the day and year they were taken from; what of them expired is not taken a second time.
    const credits = await this.repository.completionCredits(trx, siteId, completion.completion_id);
    const points: Array<{ category: string; amount: number }> = [];
    for (const credit of credits) {
      const credited = Number(credit.credited);
      const amount =
        this.expiry === undefined || credited <= 0
          ? credited
          : await this.expiry.reversible(trx, snapshot, party, credit.category, completion.completion_id, credited);
      points.push({ category: credit.category, amount });
      if (credited === 0) continue;
      await this.debit(locked, snapshot, party, completion, credit.category, credited, amount);
      // Boards lose the whole earning: an expiry never lowered a score.
      changes.push({ kind: 'points', category: credit.category, amount: credited, at: completedAt, undo: true });
    }
    changes.push({ kind: 'completion', at: completedAt, undo: true });
    if (completion.badge_id !== null) await this.recountTrophy(locked, party, completion.badge_id);
    writes.returnSupply(siteId, completion.mission_id);
    // Its tracking restarts from zero.
    writes.resetProgress(party, completion.mission_id);
    const name = snapshot.missionsById.get(completion.mission_id)?.name ?? completion.mission_id;
    const data = {
      mission: { id: completion.mission_id, name },
      completionStatus: 'removed',
      completionId: completion.completion_id,
      points,
      actionEventId: completion.event_id,
      timestamp: new Date(completedAt).toISOString(),
    };
    writes.enqueue(party, { type: 'mission.completed', occurredAt: now, data }, now);
    return {
      id: completion.mission_id,
      name,
      completionId: completion.completion_id,
      ...(party.type === 'user' ? { userId: party.id } : { groupId: party.id }),
      points,
    };
  }

  /** The streak days the completion's event kept it counted. */
  private async keptFor(locked: Locked, completion: Completion): Promise<StreakDayCounted[]> {
    const event = await this.repository.findEvent(locked.trx, completion.site_id, completion.event_id);
    return event === undefined ? [] : keptStreakDays(event);
  }

  /**
   * Takes a completion's credit back: a reversal entry (mirrored in the award account), and the cap
   * totals of the day and year it was earned in. It asks for the whole credit (`requested`: lifetime
   * points and cap totals lose it all) and takes `amount`, the credit less what of it expired.
   */
  private async debit(
    locked: Locked,
    snapshot: ProgramSnapshot,
    party: PartyKey,
    completion: Completion,
    category: string,
    credited: number,
    amount: number,
  ): Promise<void> {
    const { trx, writes, now } = locked;
    const completedAt = Number(completion.completed_at);
    const entry: PointsLedgerTable = {
      site_id: party.siteId,
      entry_id: `pts_${uuidv7()}`,
      party_type: party.type,
      party_id: party.id,
      category,
      requested: -credited,
      credited: -amount,
      cause: 'reversal',
      cause_id: completion.completion_id,
      event_id: completion.event_id,
      reason: null,
      occurred_at: completedAt,
      recorded_at: now,
    };
    writes.post(entry, lifetimeDelta(entry));
    await mirrorPoints(trx, writes, snapshot.program.awardSettings, entry);
    // The cap totals give back the whole credit, as lifetime points lose it (requested).
    if (credited <= 0) return;
    for (const period of ['day', 'year'] as const)
      writes.addEarnings(party, category, period, calendarWindow(completedAt, period, snapshot.engine.timezone).start, -credited);
  }

  /**
   * Takes the event's contribution out of the progress of missions it advanced for the party but
   * did not complete, while that progress still holds it: same window, and no completion of the
   * mission since (which consumed it, or reset it).
   */
  private async takeBackProgress(
    locked: Locked,
    snapshot: ProgramSnapshot,
    party: PartyKey,
    event: ActionEventsTable,
    completions: readonly Completion[],
  ): Promise<void> {
    const { trx, writes, now } = locked;
    const outcome = JSON.parse(event.outcome) as ActionOutcome;
    const advanced = new Set(outcome.progress.map((p) => p.challengeId));
    const completedHere = new Set(completions.filter((c) => c.party_type === party.type && c.party_id === party.id).map((c) => c.mission_id));
    const action = { name: event.action, suppressRepeats: false };
    const engineEvent: ActionEvent = {
      action,
      value: Number(event.value),
      metadata: JSON.parse(event.metadata) as Record<string, string>,
      timestamp: Number(event.occurred_at),
    };
    for (const mission of snapshot.engine.missionsByAction.get(event.action.toLowerCase()) ?? []) {
      if (mission.party !== party.type || !advanced.has(mission.id) || completedHere.has(mission.id)) continue;
      const window = windowStart(mission, engineEvent.timestamp);
      if (await this.repository.completedSince(trx, party, mission.id, window, Number(event.received_at))) continue;
      const stored = await this.repository.progressIn(trx, party, mission.id, window);
      const current = new Map(stored.map((row) => [row.rule_id, Number(row.current)]));
      const rules = mission.rules.flatMap((rule) => {
        const held = current.get(rule.id);
        if (held === undefined || !ruleMatches(rule, engineEvent)) return [];
        const amount = rule.type === 'count' ? 1 : engineEvent.value;
        return [{ ruleId: rule.id, current: held - amount > 0 ? held - amount : 0 }];
      });
      if (rules.length > 0) writes.setProgress(party, mission.id, window, rules, now);
    }
  }

  /** The trophy case entry of a badge, from what awarded it: live completions (those this decision removes left out), streak milestones and prizes. */
  private async recountTrophy(locked: Locked, party: PartyKey, badgeId: string): Promise<void> {
    const live = await this.repository.badgeEarnings(locked.trx, party, badgeId, [...locked.writes.removedCompletions.keys()]);
    locked.writes.recountTrophy(party, badgeId, live);
  }

  /** The user's debits, balances and level after the removals. */
  private async settleUser(locked: Locked, snapshot: ProgramSnapshot, user: PartyKey, result: Reversal, cause: LevelCause): Promise<void> {
    const debited = new Map<string, number>();
    for (const removed of result.completionsRemoved) {
      if (removed.userId === undefined) continue;
      for (const { category, amount } of removed.points) debited.set(category, (debited.get(category) ?? 0) + amount);
    }
    for (const [category, amount] of debited) {
      result.pointsDebited.push({ category, amount });
      const balance = await locked.balance(user, category);
      result.balances.push({ category, balance });
      if (balance < 0) result.negativeBalances.push(category);
    }
    const { engine } = snapshot;
    const defaultCategory = engine.categories.find((c) => c.isDefault)?.name;
    if (engine.levelType !== 'points' || defaultCategory === undefined || !debited.has(defaultCategory)) return;
    const to = levelFor(engine.levels, await locked.lifetime(user, defaultCategory));
    const { level_id: currentId } = locked.row(user);
    if ((to?.id ?? null) === currentId) return;
    const from: EngineLevel | null = engine.levels.find((level) => level.id === currentId) ?? null;
    const direction = (to?.threshold ?? -Infinity) > (from?.threshold ?? -Infinity) ? 'up' : 'down';
    result.levelChanged = changeLevel(locked.writes, user, { from, to, direction }, cause, locked.now, locked.now);
  }

  /** Moves the parties' board scores by what the reversal took back. */
  private async moveScores(locked: Locked, snapshot: ProgramSnapshot, user: PartyKey, groups: PartyKey[], changes: Map<string, ScoreChange[]>): Promise<void> {
    const { program } = snapshot;
    if (program.leaderboards.length === 0) return;
    const memberships = LeaderboardService.needsGroups(program) ? new Set(await this.groups.ofUser(user.siteId, user.id, locked.trx)) : new Set<string>();
    locked.writes.addScores(user.siteId, user.id, LeaderboardService.deltas(program, 'user', memberships, changes.get(partyName(user)) ?? []));
    for (const group of groups)
      locked.writes.addScores(group.siteId, group.id, LeaderboardService.deltas(program, 'group', new Set(), changes.get(partyName(group)) ?? []));
  }
}

/** The reversal with what its write set does to trophy cases and boards (the scores as the rolled-back write left them). */
function previewOf(reversal: Reversal, writes: WriteSet, scores: readonly ScoreRow[], snapshot: ProgramSnapshot): Reversal {
  if (reversal.alreadyReversed) return reversal;
  const badgesTakenBack = [...writes.trophyCounts.values()].map((trophy) => ({
    id: trophy.badgeId,
    name: snapshot.program.badges.find((badge) => badge.id === trophy.badgeId)?.name ?? trophy.badgeId,
    left: trophy.count,
    ...(trophy.partyType === 'user' ? { userId: trophy.partyId } : { groupId: trophy.partyId }),
  }));
  const boardScores = [...writes.scores.values()].flatMap((moved) => {
    if (moved.delta === 0) return [];
    const stored = scores.find((row) => row.board_id === moved.boardId && Number(row.window_start) === moved.windowStart && row.party_id === moved.partyId);
    const board = snapshot.program.leaderboards.find((b) => b.id === moved.boardId);
    return [
      {
        leaderboardId: moved.boardId,
        name: board?.name ?? moved.boardId,
        windowStart: new Date(moved.windowStart).toISOString(),
        partyId: moved.partyId,
        change: moved.delta,
        score: Number(stored?.score ?? moved.delta),
      },
    ];
  });
  return { ...reversal, badgesTakenBack, boardScores };
}

/** The streak days the event kept it counted (docs/streaks.md); none when it kept none. */
function keptStreakDays(event: ActionEventsTable): StreakDayCounted[] {
  return (JSON.parse(event.outcome) as ActionOutcome).streakDays ?? [];
}

/**
 * What a reversal asks the point expiry (src/modules/expiry/, which depends on this module: so the
 * shape is declared here): how much of a credit it may still take back.
 */
export interface ReversibleCredits {
  reversible(trx: Trx, snapshot: ProgramSnapshot, party: PartyKey, category: string, causeId: string, credited: number): Promise<number>;
}

function emptyReversal(eventId?: string): Reversal {
  return {
    ...(eventId !== undefined ? { eventId } : {}),
    alreadyReversed: false,
    completionsRemoved: [],
    pointsDebited: [],
    balances: [],
    negativeBalances: [],
  };
}

function partyName(party: PartyKey): string {
  return `${party.type}:${party.id}`;
}
