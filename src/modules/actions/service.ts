// Logging an action (SPEC §5): idempotency, unknown actions and input first; then, in one
// transaction with the party locked, the engine's decision for the party (and for the groups whose
// missions a member's action advances) is written: the event, progress, completions, supply, the
// points ledger with balances and cap totals, trophies, levels and outbox rows.
import { uuidv7 } from 'uuidv7';
import { calendarWindow, localDay } from '../../engine/calendar.js';
import { windowStart } from '../../engine/elements/missions.js';
import { evaluate } from '../../engine/evaluate.js';
import type { ActionEvent, Decision, EngineAction, EngineMission, MissionState, Party, PartyState } from '../../engine/types.js';
import type { Db } from '../../db/index.js';
import { AppError } from '../../errors.js';
import { SYSTEM_ACTIONS } from '../program/model.js';
import type { ProgramService } from '../program/service.js';
import type { ProgramSnapshot } from '../program/snapshot.js';
import { parseActionInput, type ActionInput } from './input.js';
import type { ActionsRepository, PartyKey, PresentedLevelChange } from './repository.js';

export interface ActionOutcome {
  eventId: string;
  recorded: boolean;
  reason?: 'repeat_suppressed' | 'rate_limited';
  duplicate: boolean;
  timestamp: string;
  pointsAwarded: Array<{ category: string; requested: number; credited: number }>;
  missionsCompleted: Array<{ id: string; name: string; completionId: string }>;
  progress: Array<{ challengeId: string; percentComplete: number }>;
  levelChanged?: PresentedLevelChange;
}

export interface LogOptions {
  dryRun?: boolean;
  /** A user-level token: it may log only actions marked clientLoggable (SPEC §3). */
  userLevel?: boolean;
}

interface Periods {
  day: number;
  year: number;
}

class DryRun extends Error {
  constructor(readonly outcome: ActionOutcome) {
    super('dry run');
  }
}

const UNIQUE_VIOLATION = /unique|duplicate key|23505/i;

export class ActionService {
  constructor(
    private readonly db: Db,
    private readonly repository: ActionsRepository,
    private readonly programs: ProgramService,
    private readonly clock: () => number = Date.now,
  ) {}

  async log(siteId: string, party: Party, partyId: string, body: unknown, options: LogOptions = {}): Promise<ActionOutcome> {
    const snapshot = await this.programs.snapshot(siteId);
    const now = this.clock();
    const input = parseActionInput(body, snapshot.program.site.timezone, now);
    const eventId = input.eventId ?? uuidv7();
    try {
      return await this.decide(snapshot, { siteId, type: party, id: partyId }, input, eventId, now, options);
    } catch (error) {
      if (error instanceof DryRun) return error.outcome;
      // The same event id logged concurrently for another party: answer as for a sequential reuse.
      if (error instanceof Error && UNIQUE_VIOLATION.test(error.message)) {
        const existing = await this.repository.findEvent(this.db, siteId, eventId);
        if (existing !== undefined) return this.duplicateOf(existing, { siteId, type: party, id: partyId }, input.action);
      }
      throw error;
    }
  }

  private resolveAction(snapshot: ProgramSnapshot, name: string): EngineAction {
    const configured = snapshot.actionsByName.get(name.toLowerCase());
    if (configured !== undefined) return configured;
    const system = SYSTEM_ACTIONS.find((action) => action.toLowerCase() === name.toLowerCase());
    if (system !== undefined) return { name: system, suppressRepeats: false };
    throw new AppError('unknown_action', `The site has no action "${name}"`);
  }

  private duplicateOf(existing: { party_type: string; party_id: string; action: string; outcome: string }, party: PartyKey, action: string): ActionOutcome {
    if (existing.party_type !== party.type || existing.party_id !== party.id || existing.action.toLowerCase() !== action.toLowerCase()) {
      // Reveals nothing about the first use.
      throw new AppError('event_id_conflict', 'This eventId was already used for another action');
    }
    return { ...(JSON.parse(existing.outcome) as ActionOutcome), duplicate: true };
  }

  private async decide(snapshot: ProgramSnapshot, party: PartyKey, input: ActionInput, eventId: string, now: number, options: LogOptions): Promise<ActionOutcome> {
    // A user's groups matter for group prerequisites, and for group missions, which a member's
    // action advances for each of the user's groups.
    const candidates = snapshot.engine.missionsByAction.get(input.action.toLowerCase()) ?? [];
    const needsGroups = party.type === 'user' && candidates.some((mission) => mission.party === 'group' || mission.prerequisites.groups.length > 0);
    const groupIds = needsGroups ? (await this.repository.memberships(this.db, party.siteId, party.id)).sort() : [];
    // Every party this decision touches is locked in one fixed order (groups, then the user; ids sorted).
    const groups: PartyKey[] = candidates.some((mission) => mission.party === 'group') ? groupIds.map((id) => ({ siteId: party.siteId, type: 'group', id })) : [];

    return this.db.transaction().execute(async (trx) => {
      await this.repository.lockParties(trx, [...groups, party], now);
      const existing = await this.repository.findEvent(trx, party.siteId, eventId);
      if (existing !== undefined) return this.duplicateOf(existing, party, input.action);

      const action = this.resolveAction(snapshot, input.action);
      if (options.userLevel && !('clientLoggable' in action && action.clientLoggable === true)) {
        throw new AppError('forbidden', `A user-level token may not log "${action.name}"; the action is not clientLoggable`);
      }
      const event: ActionEvent = { action, value: input.value, metadata: input.metadata, timestamp: input.timestamp ?? now };
      // The calendar day and year of the event (site time zone): the windows of the caps.
      const periods = { day: calendarWindow(event.timestamp, 'day', snapshot.engine.timezone).start, year: calendarWindow(event.timestamp, 'year', snapshot.engine.timezone).start };
      const decision = await this.decideFor(trx, snapshot, party, event, periods, party.type === 'user' ? groupIds : []);

      const outcome: ActionOutcome = {
        eventId,
        recorded: decision.recorded,
        ...(decision.reason !== undefined ? { reason: decision.reason } : {}),
        duplicate: false,
        timestamp: new Date(event.timestamp).toISOString(),
        pointsAwarded: [],
        missionsCompleted: [],
        progress: [],
      };
      if (decision.recorded) {
        await this.apply(trx, snapshot, party, event, periods, eventId, decision, outcome, now);
        for (const group of groups) {
          const groupDecision = await this.decideFor(trx, snapshot, group, event, periods, [], true);
          await this.apply(trx, snapshot, group, event, periods, eventId, groupDecision, outcome, now);
        }
        await this.repository.setLastRecorded(trx, party, JSON.stringify({ action: action.name, value: event.value, metadata: event.metadata }));
        if (party.type === 'user') await this.repository.markActive(trx, party.siteId, localDay(event.timestamp, snapshot.engine.timezone), party.id);
      }
      await this.repository.insertEvent(trx, {
        site_id: party.siteId,
        event_id: eventId,
        party_type: party.type,
        party_id: party.id,
        action: action.name,
        value: event.value,
        metadata: JSON.stringify(event.metadata),
        occurred_at: event.timestamp,
        received_at: now,
        recorded: decision.recorded ? 1 : 0,
        reason: decision.reason ?? null,
        outcome: JSON.stringify(outcome),
      });
      if (options.dryRun) throw new DryRun(outcome);
      return outcome;
    });
  }

  /** Loads the party's state for the missions this action may advance, and runs the engine. */
  private async decideFor(trx: Db, snapshot: ProgramSnapshot, party: PartyKey, event: ActionEvent, periods: Periods, groups: string[], memberAction = false): Promise<Decision> {
    const missions = (snapshot.engine.missionsByAction.get(event.action.name.toLowerCase()) ?? []).filter((mission) => mission.party === party.type);
    const row = await this.repository.party(trx, party);
    let recordedInRateWindow = 0;
    const limit = event.action.rateLimit;
    if (limit !== undefined && !memberAction) {
      const window = calendarWindow(event.timestamp, limit.period, snapshot.engine.timezone);
      recordedInRateWindow = await this.repository.countRecorded(trx, party, event.action.name, window.start, window.end);
    }
    const state: PartyState = {
      lastRecorded: row.last_recorded === null ? undefined : (JSON.parse(row.last_recorded) as PartyState['lastRecorded']),
      recordedInRateWindow,
      groups: new Set(groups),
      completedMissions: new Set(),
      missions: new Map(),
      supplyRemaining: new Map(),
      earned: new Map(),
      lifetimeDefaultPoints: 0,
    };
    if (missions.length === 0) return evaluate(snapshot.engine, party.type, state, event, { memberAction });

    const missionIds = missions.map((mission) => mission.id);
    const prerequisiteIds = [...new Set(missions.flatMap((mission) => mission.prerequisites.missions))];
    const [progressRows, completionRows, prerequisiteRows, supplyUsed] = await Promise.all([
      this.repository.progress(trx, party, missionIds),
      this.repository.completions(trx, party, missionIds),
      prerequisiteIds.length > 0 ? this.repository.completions(trx, party, prerequisiteIds) : Promise.resolve([]),
      this.repository.supplyUsed(trx, party.siteId, missions.filter((m) => m.supply !== undefined).map((m) => m.id)),
    ]);
    const missionStates = new Map<string, MissionState>();
    for (const mission of missions) missionStates.set(mission.id, missionState(mission, event.timestamp, progressRows, completionRows));
    // Only capped categories need what was earned today and this year; only a reward in the
    // default category can move the level.
    const rewarded = new Set(missions.flatMap((mission) => mission.rewards.points.map((reward) => reward.category)));
    const categories = snapshot.engine.categories.filter((c) => rewarded.has(c.name) && (c.dailyLimit !== undefined || c.yearlyLimit !== undefined)).map((c) => c.name);
    const defaultCategory = snapshot.engine.categories.find((category) => category.isDefault)?.name;
    const movesLevel = party.type === 'user' && defaultCategory !== undefined && rewarded.has(defaultCategory);
    return evaluate(
      snapshot.engine,
      party.type,
      {
        ...state,
        completedMissions: new Set(prerequisiteRows.map((row) => row.mission_id)),
        missions: missionStates,
        supplyRemaining: new Map(missions.filter((m) => m.supply !== undefined).map((m) => [m.id, (m.supply as number) - (supplyUsed.get(m.id) ?? 0)])),
        earned: categories.length > 0 ? await this.repository.earnings(trx, party, categories, periods.day, periods.year) : new Map(),
        lifetimeDefaultPoints: movesLevel ? await this.repository.lifetime(trx, party, defaultCategory) : 0,
      },
      event,
      { memberAction },
    );
  }

  /** Writes one party's decision; adds what happened to the response. */
  private async apply(trx: Db, snapshot: ProgramSnapshot, party: PartyKey, event: ActionEvent, periods: Periods, eventId: string, decision: Decision, outcome: ActionOutcome, now: number): Promise<void> {
    for (const update of decision.progress) {
      await this.repository.setProgress(trx, party, update.missionId, update.windowStart, update.rules, now);
      outcome.progress.push({ challengeId: update.missionId, percentComplete: update.percentComplete });
    }
    for (const completion of decision.completions) {
      const mission = snapshot.missionsById.get(completion.missionId) as EngineMission;
      if (completion.usesSupply && !(await this.repository.claimSupply(trx, party.siteId, mission.id, mission.supply as number))) {
        // Another party took the last unit since the state was read: this completion does not
        // happen, and the mission is out of supply, so it shows no progress either.
        await this.repository.setProgress(trx, party, mission.id, completion.windowStart, mission.rules.map((rule) => ({ ruleId: rule.id, current: 0 })), now);
        outcome.progress = outcome.progress.filter((entry) => entry.challengeId !== mission.id);
        continue;
      }
      const completionId = `cmp_${uuidv7()}`;
      await this.repository.insertCompletion(trx, {
        site_id: party.siteId,
        completion_id: completionId,
        party_type: party.type,
        party_id: party.id,
        mission_id: mission.id,
        window_start: completion.windowStart,
        event_id: eventId,
        completed_at: event.timestamp,
        recorded_at: now,
        removed_at: null,
      });
      for (const award of completion.points) {
        await this.repository.post(trx, {
          site_id: party.siteId,
          entry_id: `pts_${uuidv7()}`,
          party_type: party.type,
          party_id: party.id,
          category: award.category,
          requested: award.requested,
          credited: award.credited,
          cause: 'mission',
          cause_id: completionId,
          event_id: eventId,
          reason: null,
          occurred_at: event.timestamp,
          recorded_at: now,
        });
        if (award.credited > 0) {
          await this.repository.addEarnings(trx, party, award.category, 'day', periods.day, award.credited);
          await this.repository.addEarnings(trx, party, award.category, 'year', periods.year, award.credited);
        }
        outcome.pointsAwarded.push(award);
      }
      if (completion.badge !== undefined) {
        await this.repository.addTrophy(trx, party, completion.badge, event.timestamp);
        const badge = snapshot.program.badges.find((b) => b.id === completion.badge);
        await this.repository.enqueue(trx, party, { type: 'badge.earned', occurredAt: event.timestamp, data: { badge: { id: completion.badge, name: badge?.name ?? completion.badge }, completionId, actionEventId: eventId } }, now);
      }
      await this.repository.enqueue(
        trx,
        party,
        {
          type: 'mission.completed',
          occurredAt: event.timestamp,
          data: {
            mission: { id: mission.id, name: mission.name },
            completionStatus: 'completed',
            completionId,
            points: completion.points.map((award) => ({ category: award.category, amount: award.credited })),
            actionEventId: eventId,
            timestamp: new Date(event.timestamp).toISOString(),
          },
        },
        now,
      );
      outcome.missionsCompleted.push({ id: mission.id, name: mission.name, completionId });
    }
    if (decision.levelChanged !== undefined && party.type === 'user') {
      outcome.levelChanged = await this.repository.recordLevelChange(trx, party, decision.levelChanged, { actionEventId: eventId }, event.timestamp, now);
    }
  }
}

/** The engine's view of one mission for the party at the event's time. */
function missionState(
  mission: EngineMission,
  timestamp: number,
  progressRows: ReadonlyArray<{ mission_id: string; rule_id: string; window_start: number; current: number }>,
  completionRows: ReadonlyArray<{ mission_id: string; window_start: number; n: number }>,
): MissionState {
  const rows = progressRows.filter((row) => row.mission_id === mission.id);
  const completions = completionRows.filter((row) => row.mission_id === mission.id);
  const window = windowStart(mission, timestamp);
  return {
    progress: new Map(rows.map((row) => [row.rule_id, Number(row.current)])),
    progressWindowStart: rows[0] !== undefined ? Number(rows[0].window_start) : window,
    completionsInWindow: completions.filter((row) => Number(row.window_start) === window).reduce((sum, row) => sum + Number(row.n), 0),
    completionsTotal: completions.reduce((sum, row) => sum + Number(row.n), 0),
  };
}
