// Logging an action (SPEC §5): idempotency, unknown actions and input first; then, in one
// transaction with the party locked, the engine's decision for the party (and for the groups whose
// missions a member's action advances) is written: the event, progress, completions, supply, the
// points ledger with balances and cap totals, trophies, levels and outbox rows.
import { uuidv7 } from '../../uuid.js';
import { unwritableAmount } from '../../engine/amounts.js';
import { calendarWindow, localDay } from '../../engine/calendar.js';
import { windowStart } from '../../engine/elements/missions.js';
import type { ScoreChange } from '../../engine/elements/leaderboards.js';
import { evaluate } from '../../engine/evaluate.js';
import type { ActionEvent, Decision, EngineAction, EngineMission, MissionState, Party, PartyState } from '../../engine/types.js';
import type { Database, Trx } from '../../db/index.js';
import { AppError } from '../../errors.js';
import { SYSTEM_ACTIONS } from '../program/model.js';
import { isHiddenFromUser } from '../missions/visibility.js';
import type { ProgramService } from '../program/service.js';
import type { ProgramSnapshot } from '../program/snapshot.js';
import { parseActionInput, type ActionInput } from './input.js';
import { LeaderboardService, type ScoreUpdate } from '../leaderboards/service.js';
import { PartyCache, WRITING, type MissionEntry, type PartyEntry } from './party-cache.js';
import { mirrorPoints } from '../awards/ledger.js';
import { changeLevel, type PresentedLevelChange } from '../ledger/level-changes.js';
import type { Decided, Locked } from '../ledger/locked.js';
import { inLockOrder, type LockedRow, type PartyRow } from '../ledger/parties.js';
import type { LedgerRepository } from '../ledger/repository.js';
import { StaleWrite, SupplyTaken, type ScoreRow } from '../ledger/written.js';
import { lifetimeDelta, WriteSet, type PartyKey } from '../ledger/write-set.js';
import type { ActionsRepository, MissionStateRow, ProgressUpdate } from './repository.js';

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
  /**
   * Missions of `progress` and `missionsCompleted` hidden from the user after this action
   * (docs/missions.md): kept with the event, never sent; a user-level token's answer leaves them
   * out. Present (possibly empty) whenever the outcome names a mission that has a hidden type.
   */
  hiddenFromUser?: string[];
}

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

/**
 * A party row a decision starts from: `created` when the party is new (nothing else of it is
 * stored), `insert` when its row is still to be inserted, by the decision's own write set.
 */
type DecisionRow = LockedRow & { insert?: true };

interface Periods {
  day: number;
  year: number;
}

/** An action's decision: its write set and outcome, and what follows once the set is written. */
interface ActionDecision extends Decided<ActionOutcome> {
  /** Keeps the parties' cached state in step and adds the scores as stored to the transaction's; the outcome. */
  written(stored: readonly ScoreRow[]): ActionOutcome;
}

class DryRun extends Error {
  constructor(readonly outcome: ActionOutcome) {
    super('dry run');
  }
}

const UNIQUE_VIOLATION = /unique|duplicate key|23505/i;
/** Attempts of a decision whose write set keeps finding a mission's supply taken (each refusal is another decision's completion). */
const SUPPLY_ATTEMPTS = 10;
/** Rate-window counts and cap totals kept per party before the oldest are dropped (they are reloadable). */
const MAX_WINDOWS = 32;

export class ActionService {
  readonly #cache: PartyCache;

  constructor(
    private readonly database: Pick<Database, 'db' | 'dialect' | 'transaction'>,
    private readonly repository: ActionsRepository,
    private readonly ledger: LedgerRepository,
    private readonly programs: ProgramService,
    private readonly leaderboards: LeaderboardService,
    private readonly clock: () => number,
    /** Parties whose state this node keeps (PARTY_CACHE_SIZE). */
    cacheSize: number,
  ) {
    this.#cache = new PartyCache(cacheSize);
  }

  async log(siteId: string, party: Party, partyId: string, body: unknown, options: LogOptions = {}): Promise<ActionOutcome> {
    const snapshot = await this.programs.snapshot(siteId);
    const now = this.clock();
    const input = parseActionInput(body, snapshot.program.site.timezone, now);
    // A generated id is new by construction: only a caller's id needs the idempotency lookup.
    const eventId = input.eventId ?? uuidv7();
    return visibleTo(await this.logged(snapshot, { siteId, type: party, id: partyId }, input, eventId, now, options), options.userLevel === true, snapshot);
  }

  private async logged(
    snapshot: ProgramSnapshot,
    party: PartyKey,
    input: ActionInput,
    eventId: string,
    now: number,
    options: LogOptions,
  ): Promise<ActionOutcome> {
    try {
      return await this.decide(snapshot, party, input, eventId, now, options);
    } catch (error) {
      if (error instanceof DryRun) return error.outcome;
      // The same event id logged concurrently for another party: answer as for a sequential reuse.
      if (error instanceof Error && UNIQUE_VIOLATION.test(error.message)) {
        const existing = await this.repository.findEvent({ db: this.database.db }, party.siteId, eventId);
        if (existing !== undefined) return this.duplicateOf(existing, party, input.action);
      }
      throw error;
    }
  }

  /**
   * The configured action, or the system action of that name. An action Questline logs to report
   * what happened (a gift, a quiz attempt) is the system action whatever the program configures
   * under its name: never suppressed as a repeat nor rate-limited, since the event happened.
   */
  private resolveAction(snapshot: ProgramSnapshot, name: string, reported = false): EngineAction {
    if (!reported) {
      const configured = snapshot.actionsByName.get(name.toLowerCase());
      if (configured !== undefined) return configured;
    }
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

  private async decide(
    snapshot: ProgramSnapshot,
    party: PartyKey,
    input: ActionInput,
    eventId: string,
    now: number,
    options: LogOptions,
  ): Promise<ActionOutcome> {
    let involved: Involved | undefined;
    if (this.unlockable(snapshot, input.action, options)) {
      // Decided from the party's state without a lock, written only if the party row still has the
      // version that state belongs to (and the user the groups it was decided with): no
      // transaction, and one statement and commit for the write sets of every party decided
      // meanwhile (group commit). The state is the cached one, or read afresh (once more when
      // another writer moved the row meanwhile). An event id used before fails its write set
      // (unique), which logged() answers as a repeat.
      for (const fresh of [false, true]) {
        const row = await this.unlockedRow(snapshot, party, input, now, fresh);
        if (row === undefined) break;
        involved = await this.groupsOf(snapshot, party, input.action, row.groups);
        // A group mission may move: its group is locked with the user.
        if (involved.groups.length > 0) break;
        try {
          const scores: ScoreUpdate[] = [];
          const decided = await this.decideAction(
            { trx: { db: this.database.db }, snapshot, now, scores, cache: this.#cache },
            party,
            involved,
            [row],
            input,
            eventId,
            options,
          );
          // Committed with the write sets of other parties decided meanwhile (group commit).
          const outcome = decided.written(await this.ledger.commit({ db: this.database.db }, decided.writes));
          await this.leaderboards.publish(scores);
          return outcome;
        } catch (error) {
          if (!(error instanceof StaleWrite)) throw error;
          if (row.cached === true) this.#cache.markShared(PartyCache.key(party.siteId, party.type, party.id));
        }
      }
      // Another decision of this node is writing the party, others keep moving it, or groups are locked: decide locked.
    }
    if (involved === undefined || involved.memberships === 'cached') involved = await this.groupsOf(snapshot, party, input.action);
    const parties = [...involved.groups, party];
    return retried(async () => {
      // Leaderboard scores move in the transaction; their ranking structures after the commit.
      const scores: ScoreUpdate[] = [];
      const outcome = await this.database.transaction(async (trx) => {
        // The ledger locks every party this decision touches (the user's groups and the user), and
        // writes the decision's set at once.
        const { answer, scores: stored } = await this.ledger.write(
          trx,
          { parties, now, destinations: snapshot.destinations },
          async (locked): Promise<Decided<ActionDecision | ActionOutcome>> => {
            if (input.eventId !== undefined) {
              const existing = await this.repository.findEvent(trx, party.siteId, eventId);
              if (existing !== undefined) return { writes: locked.writes, answer: this.duplicateOf(existing, party, input.action) };
            }
            const decided = await this.decideAction(
              { trx, snapshot, now, scores, cache: this.#cache },
              party,
              involved,
              parties.map((p) => locked.row(p)),
              input,
              eventId,
              options,
            );
            return { writes: decided.writes, answer: decided };
          },
        );
        if (!('written' in answer)) return answer;
        // (Written, so that a dry run is refused as the action would be; rolled back.)
        if (options.dryRun === true) throw new DryRun(answer.answer);
        return answer.written(stored);
      });
      await this.leaderboards.publish(scores);
      return outcome;
    });
  }

  /**
   * Whether the action may be decided without a lock (PostgreSQL only, where a lock and a
   * transaction cost round trips): nothing the decision writes lies outside its write set (no
   * site-wide supply, no award account); it must also touch the party alone (no group mission).
   */
  private unlockable(snapshot: ProgramSnapshot, actionName: string, options: LogOptions): boolean {
    if (this.database.dialect !== 'postgres' || options.dryRun === true) return false;
    if (snapshot.program.awardSettings !== undefined) return false;
    return !(snapshot.engine.missionsByAction.get(actionName.toLowerCase()) ?? []).some((mission) => mission.supply !== undefined);
  }

  /**
   * The party row an unlocked decision starts from: as this node last wrote it (its cached state
   * with it, and the user's groups as last read) when that state holds all the decision reads; or
   * else (or when `fresh`, or when another node serves the party too: PartyCache.isShared) as
   * stored now, read without a lock with all the state the decision reads, in one statement. A
   * party with no row is new (`insert`): its write set inserts the row, and is written only if no
   * one did meanwhile. Undefined while another decision of this node is writing the party.
   */
  private async unlockedRow(
    snapshot: ProgramSnapshot,
    party: PartyKey,
    input: ActionInput,
    now: number,
    fresh: boolean,
  ): Promise<(DecisionRow & { groups?: readonly string[]; cached?: true }) | undefined> {
    const key = PartyCache.key(party.siteId, party.type, party.id);
    const action = this.resolveAction(snapshot, input.action);
    const { periods, rateWindow } = windowsOf(snapshot, action, input.timestamp ?? now);
    const reads = readsOf(snapshot, party.type, action.name);
    const withGroups = reads.groups;
    if (!fresh) {
      // (When fresh, the entry being written is the failed attempt's own.)
      if (this.#cache.writing(key)) return undefined;
      const entry = this.#cache.isShared(key) ? undefined : this.#cache.peek(key, snapshot.version);
      // An entry that lacks some of what this decision reads is completed by the same one read
      // (batched with others) rather than query by query.
      const complete =
        entry !== undefined &&
        (entry.allMissions || reads.missionIds.every((id) => entry.missions.has(id))) &&
        reads.categories.every((category) => knowsEarned(entry, category, periods)) &&
        (reads.lifetimeCategory === undefined || entry.lifetime.has(reads.lifetimeCategory)) &&
        (rateWindow === undefined || entry.recorded.has(rateKey(action.name, rateWindow.start))) &&
        (!withGroups || entry.groups !== undefined);
      if (complete && entry.row !== undefined) {
        return {
          version: entry.version,
          last_recorded: entry.row.lastRecorded,
          level_id: null,
          sequence: entry.row.sequence,
          cached: true,
          ...(entry.groups !== undefined ? { groups: entry.groups } : {}),
        };
      }
    }
    // Not only what this decision reads: all a decision of the party may read at the event's time
    // (every mission's state, every capped category's totals, every rate-limit window), in the same
    // one statement, so that the party's next decisions on this node read nothing.
    const whole = wholeReadsOf(snapshot, party.type);
    const rates = whole.rated.map((rated) => {
      const window = calendarWindow(input.timestamp ?? now, rated.period, snapshot.engine.timezone);
      return { action: rated.name, from: window.start, to: window.end };
    });
    const stored = await this.repository.partyState({ db: this.database.db }, party, {
      missionIds: whole.missionIds,
      categories: whole.categories,
      dayStart: periods.day,
      yearStart: periods.year,
      lifetimeCategory: whole.lifetimeCategory,
      rates,
      groups: whole.groups,
    });
    // (A user may be in groups before their first action.)
    const groups = stored.groups === undefined ? {} : { groups: [...stored.groups].sort() };
    if (stored.row === undefined) return { version: 0, last_recorded: null, level_id: null, sequence: 0, created: true, insert: true, ...groups };
    // The entry at the version read (the cached one, if still at that version) holds all of it: the decision reads nothing more.
    const entry = this.#cache.entry(key, stored.row.version, snapshot.version);
    entry.missions.clear();
    storeMissionRows(entry, stored.missions);
    entry.allMissions = true;
    // (Windows kept are bounded as the lazy loads bound them: the oldest are dropped, being reloadable.)
    if (entry.earned.size >= MAX_WINDOWS) entry.earned.clear();
    for (const [category, totals] of stored.earnings) storeEarned(entry, category, periods, totals);
    if (whole.lifetimeCategory !== undefined) entry.lifetime.set(whole.lifetimeCategory, stored.lifetime);
    if (entry.recorded.size + rates.length > MAX_WINDOWS) entry.recorded.clear();
    for (const [i, rate] of rates.entries()) entry.recorded.set(rateKey(rate.action, rate.from), stored.recorded[i] as number);
    if (groups.groups !== undefined) entry.groups = groups.groups;
    return { ...stored.row, ...(entry.groups !== undefined ? { groups: entry.groups } : {}) };
  }

  /**
   * The groups an action of the party involves: the user's groups (for group prerequisites, group
   * missions and group-filtered boards), and those of them to lock (when a group mission may move).
   * With `cached` (the groups this node last read, for an unlocked decision whose write checks
   * them), nothing is read.
   */
  async groupsOf(snapshot: ProgramSnapshot, party: PartyKey, actionName: string, cached?: readonly string[]): Promise<Involved> {
    const reads = readsOf(snapshot, party.type, actionName);
    if (!reads.groups) return { groupIds: [], groups: [], memberships: 'none' };
    const groupIds = cached !== undefined ? [...cached] : (await this.memberships(party.siteId, party.id)).sort();
    const groups = reads.groupMissions ? inLockOrder(groupIds.map((id): PartyKey => ({ siteId: party.siteId, type: 'group', id }))) : [];
    return { groupIds, groups, memberships: cached !== undefined ? 'cached' : 'read' };
  }

  /** The ids of the user's groups. */
  async memberships(siteId: string, userId: string): Promise<string[]> {
    return this.repository.memberships({ db: this.database.db }, siteId, userId);
  }

  /**
   * For writers that log a system action as part of their own transaction (a recognition's
   * RECOGNITION_GIVEN and RECOGNITION_RECEIVED): a decision (LedgerRepository.write) of the party
   * and the groups groupsOf() names, in a transaction opened with transaction() that locked them
   * all. The decisions of one transaction share a cache of their own, so that a rollback leaves
   * nothing behind in the action path's cache. Such actions report something that happened: they
   * are never suppressed as repeats nor rate-limited.
   */
  async logWithin(
    within: WithinTransaction,
    party: PartyKey,
    involved: Involved,
    input: ActionInput,
    eventId: string,
    options: { passive?: boolean } = {},
  ): Promise<ActionOutcome> {
    const parties = [...involved.groups, party];
    const { answer, scores } = await this.ledger.write(within.trx, { parties, now: within.now }, async (locked) => {
      const decided = await this.decideAction(
        within,
        party,
        involved,
        parties.map((p) => locked.row(p)),
        input,
        eventId,
        { ...options, reported: true },
      );
      return { writes: decided.writes, answer: decided };
    });
    return answer.written(scores);
  }

  /**
   * A decision of a writer outside the action path, in the transaction of `within`
   * (LedgerRepository.write): the board scores it moves are published after the commit.
   */
  async writeWithin<T>(within: WithinTransaction, parties: readonly PartyKey[], decide: (locked: Locked) => Promise<Decided<T>>): Promise<T> {
    const { answer, scores } = await this.ledger.write(within.trx, { parties, now: within.now, destinations: within.snapshot.destinations }, decide);
    if (scores.length > 0) within.scores.push(...LeaderboardService.updates(within.snapshot.siteId, scores));
    return answer;
  }

  /**
   * Runs `work` in one transaction with a context for logWithin(), and moves the ranking
   * structures of the board scores it changed after the commit.
   */
  async transaction<T>(snapshot: ProgramSnapshot, now: number, work: (within: WithinTransaction) => Promise<T>): Promise<T> {
    return retried(async () => {
      let scores: ScoreUpdate[] = [];
      const result = await this.database.transaction(async (trx) => {
        const within: WithinTransaction = { trx, snapshot, now, scores: [], cache: new PartyCache(64) };
        scores = within.scores;
        return work(within);
      });
      await this.leaderboards.publish(scores);
      return result;
    });
  }

  /** Decides one action of the locked party (and of the locked groups it advances): its write set, not yet written. */
  private async decideAction(
    { trx, snapshot, now, scores, cache }: WithinTransaction,
    party: PartyKey,
    { groupIds, groups, memberships }: Involved,
    rows: DecisionRow[],
    input: ActionInput,
    eventId: string,
    options: LogOptions & { passive?: boolean; reported?: boolean },
  ): Promise<ActionDecision> {
    const parties = [...groups, party];
    const action = this.resolveAction(snapshot, input.action, options.reported);
    if (options.userLevel && !('clientLoggable' in action && action.clientLoggable === true)) {
      throw new AppError('forbidden', `A user-level token may not log "${action.name}"; the action is not clientLoggable`);
    }
    const event: ActionEvent = { action, value: input.value, metadata: input.metadata, timestamp: input.timestamp ?? now };
    // The calendar day and year of the event (site time zone): the windows of the caps.
    const { periods, rateWindow } = windowsOf(snapshot, action, event.timestamp);
    // The parties' cached state: from here on it changes with this decision, so it is marked as
    // being written at once, before anything waits. Another decision of this node for the same
    // party then reads its own (a fresh entry) rather than changing this one, and a failure leaves
    // it unused; it is valid again only with the version this decision wrote.
    const entries = parties.map((locked, i) => {
      const entry = cache.entry(PartyCache.key(locked.siteId, locked.type, locked.id), (rows[i] as PartyRow).version, snapshot.version);
      if (rows[i]?.created === true) entry.empty = true;
      entry.version = WRITING;
      return entry;
    });
    const userRow = rows[rows.length - 1] as PartyRow;
    const userEntry = entries[entries.length - 1] as PartyEntry;
    const decision = writable(
      await this.decideFor(trx, snapshot, party, userEntry, userRow, event, periods, party.type === 'user' ? groupIds : [], rateWindow),
    );

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
    // The groups whose missions this action moved: a reversal takes its contribution back from them.
    const advancedGroups: string[] = [];
    // Everything the decision writes, written at once at the end (src/modules/ledger/).
    const writes = new WriteSet(snapshot.destinations);
    for (const [i, locked] of parties.entries()) {
      const row = rows[i] as DecisionRow;
      writes.party(
        locked,
        { version: row.version, lastRecorded: row.last_recorded, sequence: row.sequence },
        decision.recorded,
        row.insert === true ? now : undefined,
      );
    }
    if (decision.recorded) {
      const changes = await this.apply(trx, writes, snapshot, party, userEntry, event, periods, eventId, decision, outcome, now);
      changes.push({ kind: 'action', action: action.name, value: event.value, at: event.timestamp });
      writes.addScores(party.siteId, party.id, LeaderboardService.deltas(snapshot.program, party.type, new Set(groupIds), changes));
      for (const [i, group] of groups.entries()) {
        const groupEntry = entries[i] as PartyEntry;
        const groupDecision = writable(await this.decideFor(trx, snapshot, group, groupEntry, rows[i] as PartyRow, event, periods, [], undefined, true));
        const groupChanges = await this.apply(trx, writes, snapshot, group, groupEntry, event, periods, eventId, groupDecision, outcome, now);
        if (groupDecision.progress.length > 0) advancedGroups.push(group.id);
        writes.addScores(group.siteId, group.id, LeaderboardService.deltas(snapshot.program, 'group', new Set(), groupChanges));
      }
      if (rateWindow !== undefined) {
        // decideFor() read the window's count into the entry; this event is one more.
        const key = rateKey(action.name, rateWindow.start);
        const known = userEntry.recorded.get(key);
        if (known !== undefined) userEntry.recorded.set(key, known + 1);
      }
      if (party.type === 'user' && options.passive !== true) {
        const day = localDay(event.timestamp, snapshot.engine.timezone);
        if (userEntry.activeDay !== day) writes.markActive(party.siteId, day, party.id);
        userEntry.activeDay = day;
      }
    }
    if (outcome.progress.length > 0 || outcome.missionsCompleted.length > 0) {
      const hidden = hiddenFromUser(snapshot, outcome, party.type === 'user' ? [userEntry] : [], entries.slice(0, groups.length));
      if (hidden !== undefined) outcome.hiddenFromUser = hidden;
    }
    writes.events.push({
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
      reversed_at: null,
      reversal: null,
      groups: advancedGroups.length > 0 ? JSON.stringify(advancedGroups) : null,
    });
    if (decision.recorded) writes.lastRecorded(party, JSON.stringify({ action: action.name, value: event.value, metadata: event.metadata }));
    if (memberships === 'cached') writes.expectGroups(party.siteId, party.id, groupIds);
    const written = (stored: readonly ScoreRow[]): ActionOutcome => {
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
    return { writes, answer: outcome, written };
  }

  /** Completes the party's cached state for the missions this action may advance, and runs the engine. */
  private async decideFor(
    trx: Trx,
    snapshot: ProgramSnapshot,
    party: PartyKey,
    entry: PartyEntry,
    row: PartyRow,
    event: ActionEvent,
    periods: Periods,
    groups: string[],
    rateWindow: { start: number; end: number } | undefined,
    memberAction = false,
  ): Promise<Decision> {
    const { missions, missionIds, prerequisiteIds, categories, lifetimeCategory } = readsOf(snapshot, party.type, event.action.name);
    const recordedInRateWindow = rateWindow === undefined ? 0 : await this.recordedIn(trx, party, entry, event.action.name, rateWindow.start, rateWindow.end);
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

    await this.loadMissions(trx, party, entry, missionIds);
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
        earned: await this.earned(trx, party, entry, categories, periods),
        lifetimeDefaultPoints: lifetimeCategory !== undefined ? await this.lifetime(trx, party, entry, lifetimeCategory) : 0,
      },
      event,
      { memberAction },
    );
  }

  /** Loads the progress and live completions of the missions the entry does not know yet. */
  private async loadMissions(trx: Trx, party: PartyKey, entry: PartyEntry, missionIds: readonly string[]): Promise<void> {
    const missing = missionIds.filter((id) => !entry.missions.has(id));
    if (missing.length === 0) return;
    const rows = entry.empty || entry.allMissions ? [] : await this.repository.missionState(trx, party, missing);
    for (const id of missing) entry.missions.set(id, { windowStart: undefined, progress: new Map(), completions: new Map(), completionsTotal: 0 });
    storeMissionRows(entry, rows);
  }

  private async recordedIn(trx: Trx, party: PartyKey, entry: PartyEntry, action: string, start: number, end: number): Promise<number> {
    const key = rateKey(action, start);
    let count = entry.recorded.get(key);
    if (count === undefined) {
      count = entry.empty ? 0 : await this.repository.countRecorded(trx, party, action, start, end);
      if (entry.recorded.size >= MAX_WINDOWS) entry.recorded.clear();
      entry.recorded.set(key, count);
    }
    return count;
  }

  private async earned(
    trx: Trx,
    party: PartyKey,
    entry: PartyEntry,
    categories: readonly string[],
    periods: Periods,
  ): Promise<Map<string, { day: number; year: number }>> {
    let missing = categories.filter((category) => !knowsEarned(entry, category, periods));
    if (missing.length > 0) {
      // Past MAX_WINDOWS the oldest windows are dropped (they are reloadable): then every category
      // this decision needs is read again, not only the missing ones.
      if (entry.earned.size >= MAX_WINDOWS) {
        entry.earned.clear();
        missing = [...categories];
      }
      const stored = entry.empty
        ? new Map(missing.map((category) => [category, { day: 0, year: 0 }]))
        : await this.repository.earnings(trx, party, missing, periods.day, periods.year);
      for (const [category, totals] of stored) storeEarned(entry, category, periods, totals);
    }
    return new Map(
      categories.map((category) => [
        category,
        { day: entry.earned.get(earnedKey(category, 'day', periods.day)) ?? 0, year: entry.earned.get(earnedKey(category, 'year', periods.year)) ?? 0 },
      ]),
    );
  }

  private async lifetime(trx: Trx, party: PartyKey, entry: PartyEntry, category: string): Promise<number> {
    let lifetime = entry.lifetime.get(category);
    if (lifetime === undefined) {
      lifetime = entry.empty ? 0 : await this.ledger.lifetime(trx, party, category);
      entry.lifetime.set(category, lifetime);
    }
    return lifetime;
  }

  /** Writes one party's decision, keeping its cached state in step; adds what happened to the response and returns it for the leaderboards. */
  private async apply(
    trx: Trx,
    writes: WriteSet,
    snapshot: ProgramSnapshot,
    party: PartyKey,
    entry: PartyEntry,
    event: ActionEvent,
    periods: Periods,
    eventId: string,
    decision: Decision,
    outcome: ActionOutcome,
    now: number,
  ): Promise<ScoreChange[]> {
    const changes: ScoreChange[] = [];
    const setProgress = (updates: ReadonlyArray<ProgressUpdate>) => {
      for (const { missionId, windowStart, rules } of updates) {
        writes.setProgress(party, missionId, windowStart, rules, now);
        const mission = missionEntry(entry, missionId);
        mission.windowStart = windowStart;
        mission.progress = new Map(rules.map((rule) => [rule.ruleId, rule.current]));
      }
    };
    setProgress(decision.progress);
    for (const update of decision.progress) outcome.progress.push({ challengeId: update.missionId, percentComplete: update.percentComplete });
    for (const completion of decision.completions) {
      const mission = snapshot.missionsById.get(completion.missionId) as EngineMission;
      // (A unit of the mission's site-wide supply: taken when the set is written, if still left.)
      if (completion.usesSupply) writes.claimSupply(party.siteId, mission.id, mission.supply as number);
      const completionId = `cmp_${uuidv7()}`;
      writes.completions.push({
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
        badge_id: completion.badge ?? null,
      });
      const completed = missionEntry(entry, mission.id);
      completed.completions.set(completion.windowStart, (completed.completions.get(completion.windowStart) ?? 0) + 1);
      completed.completionsTotal += 1;
      for (const award of completion.points) {
        const ledgerEntry = {
          site_id: party.siteId,
          entry_id: `pts_${uuidv7()}`,
          party_type: party.type,
          party_id: party.id,
          category: award.category,
          requested: award.requested,
          credited: award.credited,
          cause: 'mission' as const,
          cause_id: completionId,
          event_id: eventId,
          reason: null,
          occurred_at: event.timestamp,
          recorded_at: now,
        };
        writes.post(ledgerEntry, lifetimeDelta(ledgerEntry));
        await mirrorPoints(trx, writes, snapshot.program.awardSettings, ledgerEntry);
        const lifetime = entry.lifetime.get(award.category);
        if (lifetime !== undefined) entry.lifetime.set(award.category, lifetime + Math.max(0, award.credited));
        if (award.credited > 0) {
          for (const period of ['day', 'year'] as const) {
            writes.addEarnings(party, award.category, period, periods[period], award.credited);
            const key = earnedKey(award.category, period, periods[period]);
            const earned = entry.earned.get(key);
            if (earned !== undefined) entry.earned.set(key, earned + award.credited);
          }
        }
        outcome.pointsAwarded.push(award);
        if (award.credited !== 0) changes.push({ kind: 'points', category: award.category, amount: award.credited, at: event.timestamp });
      }
      if (completion.badge !== undefined) {
        writes.addTrophy(party, completion.badge, event.timestamp);
        const badge = snapshot.program.badges.find((b) => b.id === completion.badge);
        writes.enqueue(
          party,
          {
            type: 'badge.earned',
            occurredAt: event.timestamp,
            data: { badge: { id: completion.badge, name: badge?.name ?? completion.badge }, completionId, actionEventId: eventId },
          },
          now,
        );
      }
      writes.enqueue(
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
      changes.push({ kind: 'completion', at: event.timestamp });
    }
    if (decision.levelChanged !== undefined && party.type === 'user') {
      outcome.levelChanged = changeLevel(writes, party, decision.levelChanged, { actionEventId: eventId }, event.timestamp, now);
    }
    return changes;
  }
}

/**
 * The outcome as the caller may see it: a user-level token's without the missions hidden from its
 * user (as every read hides them), anyone's without the list of them. An event stored before the
 * list existed is judged by what it says alone, and never shows a mission it cannot tell is visible.
 */
export function visibleTo(outcome: ActionOutcome, userLevel: boolean, snapshot?: ProgramSnapshot): ActionOutcome {
  const { hiddenFromUser: listed, ...visible } = outcome;
  if (!userLevel) return visible;
  const hidden = listed ?? (snapshot === undefined ? [] : presumedHidden(snapshot, visible));
  if (hidden.length === 0) return visible;
  return {
    ...visible,
    progress: visible.progress.filter((entry) => !hidden.includes(entry.challengeId)),
    missionsCompleted: visible.missionsCompleted.filter((mission) => !hidden.includes(mission.id)),
  };
}

/** The missions of the outcome that have a hidden type, or none at all. */
function named(snapshot: ProgramSnapshot, outcome: ActionOutcome) {
  const ids = new Set([...outcome.progress.map((entry) => entry.challengeId), ...outcome.missionsCompleted.map((mission) => mission.id)]);
  return [...ids].flatMap((id) => {
    const mission = snapshot.missionsById.get(id);
    return mission === undefined || mission.hidden === 'not_hidden' ? [] : [mission];
  });
}

/**
 * The missions the outcome names that are hidden from the user, judged by the state after the
 * action; undefined when it names no mission with a hidden type.
 */
function hiddenFromUser(snapshot: ProgramSnapshot, outcome: ActionOutcome, users: PartyEntry[], groups: PartyEntry[]): string[] | undefined {
  const candidates = named(snapshot, outcome);
  if (candidates.length === 0) return undefined;
  return candidates
    .filter((mission) => {
      const owners = mission.party === 'user' ? users : groups;
      return isHiddenFromUser(mission, (missionId) => owners.some((entry) => (entry.missions.get(missionId)?.completionsTotal ?? 0) > 0));
    })
    .map((mission) => mission.id);
}

/** For an outcome stored without its list: only what it completed itself counts as completed. */
function presumedHidden(snapshot: ProgramSnapshot, outcome: ActionOutcome): string[] {
  const completed = new Set(outcome.missionsCompleted.map((mission) => mission.id));
  return named(snapshot, outcome)
    .filter((mission) => mission.hidden === 'always_hidden' || !completed.has(mission.id))
    .map((mission) => mission.id);
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

function rateKey(action: string, windowStart: number): string {
  return `${action}|${windowStart}`;
}

function missionEntry(entry: PartyEntry, missionId: string): MissionEntry {
  let mission = entry.missions.get(missionId);
  if (mission === undefined) {
    mission = { windowStart: undefined, progress: new Map(), completions: new Map(), completionsTotal: 0 };
    entry.missions.set(missionId, mission);
  }
  return mission;
}

/** The calendar day and year of the event (site time zone: the windows of the caps), and the action's rate-limit window holding it (SPEC §5 step 4). */
function windowsOf(
  snapshot: ProgramSnapshot,
  action: EngineAction,
  timestamp: number,
): { periods: Periods; rateWindow: { start: number; end: number } | undefined } {
  const zone = snapshot.engine.timezone;
  return {
    periods: { day: calendarWindow(timestamp, 'day', zone).start, year: calendarWindow(timestamp, 'year', zone).start },
    rateWindow: action.rateLimit === undefined ? undefined : calendarWindow(timestamp, action.rateLimit.period, zone),
  };
}

/** What a decision of a party of a type reads for an action (readsOf()). */
interface Reads {
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
}

/** readsOf() per program snapshot (immutable), by party type and action: the action path asks for it several times a decision. */
const readsBySnapshot = new WeakMap<ProgramSnapshot, Map<string, Reads>>();

/** What a decision of a party of this type reads of its state for the action (computed once per program version). */
function readsOf(snapshot: ProgramSnapshot, partyType: PartyKey['type'], actionName: string): Reads {
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
    reads = {
      missions,
      prerequisiteIds,
      missionIds: missions.length === 0 ? [] : [...missions.map((mission) => mission.id), ...prerequisiteIds],
      categories:
        missions.length === 0
          ? []
          : snapshot.engine.categories.filter((c) => rewarded.has(c.name) && (c.dailyLimit !== undefined || c.yearlyLimit !== undefined)).map((c) => c.name),
      lifetimeCategory: partyType === 'user' && defaultCategory !== undefined && rewarded.has(defaultCategory) ? defaultCategory : undefined,
      groups:
        partyType === 'user' &&
        (groupMissions || candidates.some((mission) => mission.prerequisites.groups.length > 0) || LeaderboardService.needsGroups(snapshot.program)),
      groupMissions,
    };
    bySnapshot.set(key, reads);
  }
  return reads;
}

/** What a decision of a party of the type may read, whatever its action (wholeReadsOf()). */
interface WholeReads {
  missionIds: readonly string[];
  /** Every capped category. */
  categories: readonly string[];
  lifetimeCategory: string | undefined;
  groups: boolean;
  /** The rate-limited actions, with their windows' period. */
  rated: ReadonlyArray<{ name: string; period: NonNullable<EngineAction['rateLimit']>['period'] }>;
}

const wholeReadsBySnapshot = new WeakMap<ProgramSnapshot, Map<PartyKey['type'], WholeReads>>();

/** The union of readsOf() over every action, for the party type (computed once per program version). */
function wholeReadsOf(snapshot: ProgramSnapshot, partyType: PartyKey['type']): WholeReads {
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
    };
    byType.set(partyType, whole);
  }
  return whole;
}

/** Adds stored progress and live completion counts to the entry's missions (created when absent). */
function storeMissionRows(entry: PartyEntry, rows: readonly MissionStateRow[]): void {
  for (const row of rows) {
    const mission = missionEntry(entry, row.mission_id);
    if (row.kind === 'progress') {
      mission.windowStart = Number(row.window_start);
      mission.progress.set(row.rule_id as string, Number(row.n));
    } else {
      mission.completions.set(Number(row.window_start), Number(row.n));
      mission.completionsTotal += Number(row.n);
    }
  }
}

/** The key of a cap total in a party's entry: what was earned in the category in the period starting then. */
function earnedKey(category: string, period: 'day' | 'year', start: number): string {
  return `${category}|${period}|${start}`;
}

function knowsEarned(entry: PartyEntry, category: string, periods: Periods): boolean {
  return entry.earned.has(earnedKey(category, 'day', periods.day)) && entry.earned.has(earnedKey(category, 'year', periods.year));
}

function storeEarned(entry: PartyEntry, category: string, periods: Periods, totals: { day: number; year: number }): void {
  entry.earned.set(earnedKey(category, 'day', periods.day), totals.day);
  entry.earned.set(earnedKey(category, 'year', periods.year), totals.year);
}

/**
 * Runs `attempt` (a transaction and what follows its commit) again while its write set is refused
 * because other decisions took the last units of a mission's supply since it read them: decided
 * again, it reads the supply as it is now, so that supply stays exact site-wide.
 */
async function retried<T>(attempt: () => Promise<T>): Promise<T> {
  for (let attempts = 1; ; attempts++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof SupplyTaken) || attempts >= SUPPLY_ATTEMPTS) throw error;
    }
  }
}
