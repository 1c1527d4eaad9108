// The decision of one action (SPEC §5): its write set, event and outcome, not yet written. The
// engine decides for the party, and for the groups whose missions a member's action advances, each
// from the party's cached state completed with what it lacks (./party-state.ts); what follows from
// each decision is collected in one write set (./decision-writes.ts). The caller writes the set
// (LedgerRepository.write under lock, or commit for an unlocked decision).
import { unwritableAmount } from '../../engine/amounts.js';
import { localDay } from '../../engine/calendar.js';
import { levelChange } from '../../engine/elements/levels.js';
import { windowStart } from '../../engine/elements/missions.js';
import { evaluate } from '../../engine/evaluate.js';
import type { ActionEvent, Decision, EngineAction, EngineMission, MissionState, PartyState } from '../../engine/types.js';
import type { Trx } from '../../db/index.js';
import type { ActionEventsTable } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { LeaderboardService, type ScoreUpdate } from '../leaderboards/service.js';
import type { Decided } from '../ledger/locked.js';
import type { PartyRow } from '../ledger/parties.js';
import type { LedgerRepository } from '../ledger/repository.js';
import type { ScoreRow } from '../ledger/written.js';
import { WriteSet, type PartyKey } from '../ledger/write-set.js';
import { SYSTEM_ACTIONS } from '../program/model.js';
import { countStreaks, userStreakDays, type StreaksCounted } from '../streaks/service.js';
import type { ProgramSnapshot } from '../program/snapshot.js';
import { applyDecision, type ActionContext } from './decision-writes.js';
import type { ActionInput } from './input.js';
import { badgesEarned, hiddenFromUser, type ActionOutcome } from './outcome.js';
import { PartyCache, WRITING, type MissionEntry, type PartyEntry } from './party-cache.js';
import { earned, lifetime, loadMissions, rateKey, recordedIn, type DecisionRow } from './party-state.js';
import { readsOf, windowsOf } from './reads.js';
import type { ActionsRepository } from './repository.js';

/** The groups an action of a party involves (groupsOf()): the user's groups, and those to lock. */
export interface Involved {
  groupIds: string[];
  groups: PartyKey[];
  /** How `groupIds` are known: read now, taken from this node's cache (the write checks them), or not needed (none). */
  memberships: 'read' | 'cached' | 'none';
}

/** The transaction decisions are written in: its party cache, and its board score changes (add yours), published after the commit. */
export interface WithinTransaction {
  trx: Trx;
  snapshot: ProgramSnapshot;
  now: number;
  scores: ScoreUpdate[];
  cache: PartyCache;
}

export interface LogOptions {
  dryRun?: boolean;
  /** A user-level token: it may log only actions marked clientLoggable (SPEC §3). */
  userLevel?: boolean;
}

/** One action to decide: whose, what was sent, its event id, and how it is logged. */
export interface LoggedAction {
  party: PartyKey;
  input: ActionInput;
  eventId: string;
  /** `passive`: the action does not count as the party's last; `reported`: Questline logs it to report what happened (resolveAction). */
  options: LogOptions & { passive?: boolean; reported?: boolean };
}

/** An action's decision: its write set and outcome, and what follows once the set is written. */
export interface ActionDecision extends Decided<ActionOutcome> {
  /** Keeps the parties' cached state in step and adds the scores as stored to the transaction's; the outcome. */
  written(stored: readonly ScoreRow[]): ActionOutcome;
}

/**
 * The configured action, or the system action of that name. An action Questline logs to report
 * what happened (a gift, a quiz attempt) is the system action whatever the program configures
 * under its name: never suppressed as a repeat nor rate-limited, since the event happened.
 */
export function resolveAction(snapshot: ProgramSnapshot, name: string, reported = false): EngineAction {
  if (!reported) {
    const configured = snapshot.actionsByName.get(name.toLowerCase());
    if (configured !== undefined) return configured;
  }
  const system = SYSTEM_ACTIONS.find((action) => action.toLowerCase() === name.toLowerCase());
  if (system !== undefined) return { name: system, suppressRepeats: false };
  throw new AppError('unknown_action', `The site has no action "${name}"`);
}

export class ActionDecider {
  constructor(
    private readonly repository: ActionsRepository,
    private readonly ledger: LedgerRepository,
  ) {}

  /** Decides one action of the locked party (and of the locked groups it advances): its write set, not yet written. */
  async decide(within: WithinTransaction, logged: LoggedAction, involved: Involved, rows: DecisionRow[]): Promise<ActionDecision> {
    const { party, input, eventId, options } = logged;
    const { snapshot, now } = within;
    const { groupIds, groups } = involved;
    const parties = [...groups, party];
    const action = resolveAction(snapshot, input.action, options.reported);
    if (options.userLevel && !('clientLoggable' in action && action.clientLoggable === true)) {
      throw new AppError('forbidden', `A user-level token may not log "${action.name}"; the action is not clientLoggable`);
    }
    const event: ActionEvent = { action, value: input.value, metadata: input.metadata, timestamp: input.timestamp ?? now };
    // The calendar day and year of the event (site time zone): the windows of the caps.
    const { periods, rateWindow } = windowsOf(snapshot, action, event.timestamp);
    const entries = writingEntries(within.cache, snapshot, parties, rows);
    const userEntry = entries[entries.length - 1] as PartyEntry;
    const writes = new WriteSet(snapshot.destinations);
    const context: ActionContext = { trx: within.trx, snapshot, now, eventId, event, periods, rateWindow, writes };
    const userRow = rows[rows.length - 1] as PartyRow;
    const decision = writable(await this.decideFor(context, party, userEntry, userRow, party.type === 'user' ? groupIds : []));
    const outcome = newOutcome(eventId, decision, event.timestamp);
    // The groups whose missions this action moved: a reversal takes its contribution back from them.
    const advancedGroups: string[] = [];
    nameParties(writes, parties, rows, decision.recorded, now);
    if (decision.recorded) {
      const streaks = await this.countStreaks(context, party, userEntry, decision);
      const changes = await applyDecision(context, party, userEntry, decision, outcome);
      if (streaks !== undefined) keepStreaks(userEntry, outcome, streaks);
      // Kept with the event when the action counted some: a reversal un-counts exactly those.
      if (streaks !== undefined && streaks.days.length > 0) outcome.streakDays = streaks.days;
      changes.push({ kind: 'action', action: action.name, value: event.value, at: event.timestamp });
      writes.addScores(party.siteId, party.id, LeaderboardService.deltas(snapshot.program, party.type, new Set(groupIds), changes));
      for (const [i, group] of groups.entries()) {
        const groupEntry = entries[i] as PartyEntry;
        const groupDecision = writable(await this.decideFor(context, group, groupEntry, rows[i] as PartyRow, [], true));
        const groupChanges = await applyDecision(context, group, groupEntry, groupDecision, outcome);
        if (groupDecision.progress.length > 0) advancedGroups.push(group.id);
        writes.addScores(group.siteId, group.id, LeaderboardService.deltas(snapshot.program, 'group', new Set(), groupChanges));
      }
      keepRecorded(context, party, userEntry, action.name, options.passive === true);
      // (Its completions' and streak milestones' badges, as the write set holds them: nothing read.)
      outcome.badgesEarned = badgesEarned(writes, snapshot);
    }
    if (outcome.progress.length > 0 || outcome.missionsCompleted.length > 0) {
      const hidden = hiddenFromUser(snapshot, outcome, party.type === 'user' ? [userEntry] : [], entries.slice(0, groups.length));
      if (hidden !== undefined) outcome.hiddenFromUser = hidden;
    }
    writes.events.push(eventRow(context, party, action.name, decision, outcome, advancedGroups));
    if (decision.recorded) writes.lastRecorded(party, JSON.stringify({ action: action.name, value: event.value, metadata: event.metadata }));
    if (involved.memberships === 'cached') writes.expectGroups(party.siteId, party.id, groupIds);
    return { writes, answer: outcome, written: whenWritten(within.scores, party, parties, entries, writes, involved, outcome) };
  }

  /**
   * What the action adds to the user's streaks (src/modules/streaks/), into its write set; the
   * level the decision leads to then counts the milestones' points too. Undefined when no streak
   * counts the action (nothing read).
   */
  private async countStreaks(context: ActionContext, party: PartyKey, entry: PartyEntry, decision: Decision): Promise<StreaksCounted | undefined> {
    const { trx, snapshot, now, eventId, event, writes } = context;
    const completed = decision.completions.map((completion) => completion.missionId);
    const counted = await countStreaks({
      trx,
      snapshot,
      now,
      eventId,
      party,
      action: event.action.name,
      timestamp: event.timestamp,
      completed,
      writes,
      days: async () => (entry.streakDays ??= entry.empty ? new Map() : await userStreakDays(trx, snapshot, party.id)),
    });
    const category = snapshot.engine.categories.find((c) => c.isDefault)?.name;
    const gained = (counted?.credits ?? []).reduce((sum, credit) => sum + (credit.category === category ? credit.credited : 0), 0);
    if (snapshot.engine.levelType === 'points' && category !== undefined && gained > 0) {
      const before = await lifetime(this.ledger, trx, party, entry, category);
      const missions = decision.pointsAwarded.reduce((sum, award) => sum + (award.category === category ? award.credited : 0), 0);
      const change = levelChange(snapshot.engine.levels, before, before + missions + gained);
      if (change === undefined) delete decision.levelChanged;
      else decision.levelChanged = change;
    }
    return counted;
  }

  /**
   * Completes the party's cached state for the missions this action may advance, and runs the
   * engine. `groups`: the user's groups; `memberAction`: the party is a group its member's action
   * advances (not rate-limited by the member's action).
   */
  private async decideFor(
    context: ActionContext,
    party: PartyKey,
    entry: PartyEntry,
    row: PartyRow,
    groups: string[],
    memberAction = false,
  ): Promise<Decision> {
    const { trx, snapshot, event, periods } = context;
    const rateWindow = memberAction ? undefined : context.rateWindow;
    const { missions, missionIds, prerequisiteIds, categories, lifetimeCategory, assignedLevel } = readsOf(snapshot, party.type, event.action.name);
    const recordedInRateWindow = rateWindow === undefined ? 0 : await recordedIn(this.repository, trx, party, entry, event.action.name, rateWindow);
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

    await loadMissions(this.repository, trx, party, entry, missionIds);
    const supplied = missions.filter((mission) => mission.supply !== undefined);
    const supplyUsed = await this.repository.supplyUsed(
      trx,
      party.siteId,
      supplied.map((mission) => mission.id),
    );
    return evaluate(
      snapshot.engine,
      party.type,
      {
        ...state,
        completedMissions: new Set(prerequisiteIds.filter((id) => (entry.missions.get(id)?.completionsTotal ?? 0) > 0)),
        missions: new Map(missions.map((mission) => [mission.id, missionState(mission, event.timestamp, entry.missions.get(mission.id))])),
        supplyRemaining: new Map(supplied.map((m) => [m.id, (m.supply as number) - (supplyUsed.get(m.id) ?? 0)])),
        earned: await earned(this.repository, trx, party, entry, categories, periods),
        lifetimeDefaultPoints: lifetimeCategory !== undefined ? await lifetime(this.ledger, trx, party, entry, lifetimeCategory) : 0,
        ...(assignedLevel ? { assignedLevel: row.level_id } : {}),
      },
      event,
      { memberAction },
    );
  }
}

/**
 * The parties' cached state: from here on it changes with this decision, so it is marked as being
 * written at once, before anything waits. Another decision of this node for the same party then
 * reads its own (a fresh entry) rather than changing this one, and a failure leaves it unused; it
 * is valid again only with the version this decision wrote.
 */
function writingEntries(cache: PartyCache, snapshot: ProgramSnapshot, parties: readonly PartyKey[], rows: readonly DecisionRow[]): PartyEntry[] {
  return parties.map((locked, i) => {
    const entry = cache.entry(PartyCache.key(locked.siteId, locked.type, locked.id), (rows[i] as PartyRow).version, snapshot.version);
    if (rows[i]?.created === true) entry.empty = true;
    entry.version = WRITING;
    return entry;
  });
}

/** The parties' rows the write set saves (or inserts), at the versions the decision read. */
function nameParties(writes: WriteSet, parties: readonly PartyKey[], rows: readonly DecisionRow[], recorded: boolean, now: number): void {
  for (const [i, locked] of parties.entries()) {
    const row = rows[i] as DecisionRow;
    writes.party(locked, { version: row.version, lastRecorded: row.last_recorded, sequence: row.sequence }, recorded, row.insert === true ? now : undefined);
  }
}

function newOutcome(eventId: string, decision: Decision, timestamp: number): ActionOutcome {
  return {
    eventId,
    recorded: decision.recorded,
    ...(decision.reason !== undefined ? { reason: decision.reason } : {}),
    duplicate: false,
    timestamp: new Date(timestamp).toISOString(),
    pointsAwarded: [],
    missionsCompleted: [],
    progress: [],
    badgesEarned: [],
  };
}

/** A recorded action counts in its rate window (decideFor() read the window's count into the entry) and marks its user active today. */
function keepRecorded({ snapshot, event, rateWindow, writes }: ActionContext, party: PartyKey, userEntry: PartyEntry, action: string, passive: boolean): void {
  if (rateWindow !== undefined) {
    const key = rateKey(action, rateWindow.start);
    const known = userEntry.recorded.get(key);
    if (known !== undefined) userEntry.recorded.set(key, known + 1);
  }
  if (party.type === 'user' && !passive) {
    const day = localDay(event.timestamp, snapshot.engine.timezone);
    if (userEntry.activeDay !== day) writes.markActive(party.siteId, day, party.id);
    userEntry.activeDay = day;
  }
}

/** Streak milestone credits in the user's cached lifetime points and in the action's answer, with the streaks extended. */
function keepStreaks(entry: PartyEntry, outcome: ActionOutcome, { credits, extended }: StreaksCounted): void {
  for (const credit of credits) {
    const lifetime = entry.lifetime.get(credit.category);
    if (lifetime !== undefined) entry.lifetime.set(credit.category, lifetime + credit.credited);
    outcome.pointsAwarded.push(credit);
  }
  if (extended.length > 0) outcome.streaksExtended = extended;
}

/** The action's event as stored, with its outcome. */
function eventRow(
  { eventId, event, now }: ActionContext,
  party: PartyKey,
  action: string,
  decision: Decision,
  outcome: ActionOutcome,
  advancedGroups: string[],
): ActionEventsTable {
  return {
    site_id: party.siteId,
    event_id: eventId,
    party_type: party.type,
    party_id: party.id,
    action,
    value: event.value,
    metadata: JSON.stringify(event.metadata),
    occurred_at: event.timestamp,
    received_at: now,
    recorded: decision.recorded ? 1 : 0,
    reason: decision.reason ?? null,
    outcome: JSON.stringify(outcome),
    reversed_at: null,
    reversal: null,
    groups: advancedGroups.length > 0 ? JSON.stringify(advancedGroups) : null,
  };
}

/** What follows once the set is written: the parties' cached state at the versions written, the scores as stored in the transaction's; the outcome. */
function whenWritten(
  scores: ScoreUpdate[],
  party: PartyKey,
  parties: readonly PartyKey[],
  entries: readonly PartyEntry[],
  writes: WriteSet,
  { memberships, groupIds }: Involved,
  outcome: ActionOutcome,
): ActionDecision['written'] {
  const userEntry = entries[entries.length - 1] as PartyEntry;
  return (stored) => {
    scores.push(...LeaderboardService.updates(party.siteId, stored));
    for (const [i, entry] of entries.entries()) {
      // Recorded, the parties' rows moved to their next version; otherwise nothing of their state changed.
      const saved = writes.saved(parties[i] as PartyKey) as NonNullable<ReturnType<WriteSet['saved']>>;
      entry.version = saved.version;
      entry.row = { lastRecorded: saved.lastRecorded, sequence: saved.sequence };
      entry.empty = false;
    }
    if (memberships !== 'none') userEntry.groups = groupIds;
    return outcome;
  };
}

/**
 * The decision, when every number in it fits the ledger; otherwise the action is refused before
 * its party's writes (a group's decision comes after the member's writes: its refusal rolls the
 * transaction back).
 */
function writable(decision: Decision): Decision {
  const problem = unwritableAmount(decision);
  if (problem !== undefined) throw new AppError('amount_out_of_range', problem);
  return decision;
}

/** The engine's view of one mission for the party at the event's time. */
function missionState(mission: EngineMission, timestamp: number, known: MissionEntry | undefined): MissionState {
  const window = windowStart(mission, timestamp);
  return {
    progress: known?.progress ?? new Map(),
    progressWindowStart: known?.windowStart ?? window,
    completionsInWindow: known?.completions.get(window) ?? 0,
    completionsTotal: known?.completionsTotal ?? 0,
  };
}
