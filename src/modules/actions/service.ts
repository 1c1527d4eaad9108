// Logging an action (SPEC §5), and the two ways its decision (./decision.ts) is written.
// Idempotency, unknown actions and input come first. On PostgreSQL a decision that touches the
// party alone is made without a lock, from the party's cached or freshly read state
// (./party-state.ts), and written guarded by the party row's version, with other parties'
// decisions (group commit); otherwise in one transaction with the party (and the groups whose
// missions a member's action advances) locked. Writers that log system actions in their own
// transaction come in through logWithin().
import { uuidv7 } from '../../uuid.js';
import { calendarWindow } from '../../engine/calendar.js';
import type { Party } from '../../engine/types.js';
import type { Database, Trx } from '../../db/index.js';
import { AppError } from '../../errors.js';
import type { ProgramService } from '../program/service.js';
import type { ProgramSnapshot } from '../program/snapshot.js';
import { parseActionInput, type ActionInput } from './input.js';
import type { GroupService } from '../groups/service.js';
import { LeaderboardService, type ScoreUpdate } from '../leaderboards/service.js';
import { PartyCache } from './party-cache.js';
import type { Decided, Locked } from '../ledger/locked.js';
import { inLockOrder } from '../ledger/parties.js';
import type { LedgerRepository } from '../ledger/repository.js';
import { StaleWrite, SupplyTaken } from '../ledger/written.js';
import type { PartyKey, WriteSet } from '../ledger/write-set.js';
import { webhooksSent } from './dry-run.js';
import { ActionDecider, resolveAction, type ActionDecision, type Involved, type LoggedAction, type LogOptions, type WithinTransaction } from './decision.js';
import { visibleTo, withBadges, type ActionOutcome } from './outcome.js';
import { cachedRow, keepWholeState, type DecisionRow } from './party-state.js';
import { readsOf, wholeReadsOf, windowsOf } from './reads.js';
import type { ActionsRepository, HistoryFilter, LoggedActionRow } from './repository.js';

export { visibleTo, type ActionOutcome } from './outcome.js';
export type { Involved, LogOptions, WithinTransaction } from './decision.js';

/** A dry run's decision, written in its transaction and rolled back: its outcome, and its write set for what the answer adds (./dry-run.ts). */
class DryRun extends Error {
  constructor(
    readonly outcome: ActionOutcome,
    readonly writes: WriteSet,
  ) {
    super('dry run');
  }
}

const UNIQUE_VIOLATION = /unique|duplicate key|23505/i;
/** Attempts of a decision whose write set keeps finding a mission's supply taken (each refusal is another decision's completion). */
const SUPPLY_ATTEMPTS = 10;

export class ActionService {
  readonly #cache: PartyCache;
  readonly #decider: ActionDecider;

  constructor(
    private readonly database: Pick<Database, 'db' | 'dialect' | 'transaction'>,
    private readonly repository: ActionsRepository,
    private readonly ledger: LedgerRepository,
    private readonly programs: ProgramService,
    private readonly leaderboards: LeaderboardService,
    private readonly groups: GroupService,
    private readonly clock: () => number,
    /** Parties whose state this node keeps (PARTY_CACHE_SIZE). */
    cacheSize: number,
  ) {
    this.#cache = new PartyCache(cacheSize);
    this.#decider = new ActionDecider(repository, ledger);
  }

  async log(siteId: string, party: Party, partyId: string, body: unknown, options: LogOptions = {}): Promise<ActionOutcome> {
    const snapshot = await this.programs.snapshot(siteId);
    const now = this.clock();
    const input = parseActionInput(body, snapshot.program.site.timezone, now);
    // A generated id is new by construction: only a caller's id needs the idempotency lookup.
    const eventId = input.eventId ?? uuidv7();
    const logged = await this.logged(snapshot, now, { party: { siteId, type: party, id: partyId }, input, eventId, options });
    return visibleTo(logged, options.userLevel === true, snapshot);
  }

  private async logged(snapshot: ProgramSnapshot, now: number, action: LoggedAction): Promise<ActionOutcome> {
    const { party, input, eventId } = action;
    try {
      return await this.decide(snapshot, now, action);
    } catch (error) {
      if (error instanceof DryRun) return this.dryRunAnswer(snapshot, error, action.options);
      // The same event id logged concurrently for another party: answer as for a sequential reuse.
      if (error instanceof Error && UNIQUE_VIOLATION.test(error.message)) {
        const existing = await this.repository.findEvent({ db: this.database.db }, party.siteId, eventId);
        if (existing !== undefined) return this.duplicateOf(existing, party, input.action);
      }
      throw error;
    }
  }

  /** A dry run's outcome (with the badges it would award, as any outcome) and, for a client's token, the webhooks it would send. */
  private async dryRunAnswer(snapshot: ProgramSnapshot, { outcome, writes }: DryRun, options: LogOptions): Promise<ActionOutcome> {
    const answer: ActionOutcome = { ...outcome };
    // (A user's app has no business with the site's webhook endpoints.)
    if (options.userLevel !== true) answer.webhooks = webhooksSent(writes, snapshot, await this.programs.subscriptions(snapshot.siteId));
    return answer;
  }

  private duplicateOf(existing: { party_type: string; party_id: string; action: string; outcome: string }, party: PartyKey, action: string): ActionOutcome {
    if (existing.party_type !== party.type || existing.party_id !== party.id || existing.action.toLowerCase() !== action.toLowerCase()) {
      // Reveals nothing about the first use.
      throw new AppError('event_id_conflict', 'This eventId was already used for another action');
    }
    return { ...withBadges(JSON.parse(existing.outcome) as ActionOutcome), duplicate: true };
  }

  private async decide(snapshot: ProgramSnapshot, now: number, action: LoggedAction): Promise<ActionOutcome> {
    const { party, input, options } = action;
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
          const decided = await this.#decider.decide({ trx: { db: this.database.db }, snapshot, now, scores, cache: this.#cache }, action, involved, [row]);
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
    return this.decideLocked(snapshot, now, action, involved);
  }

  /** Decides and writes the action in one transaction that locks every party it touches (the user's groups and the user). */
  private decideLocked(snapshot: ProgramSnapshot, now: number, action: LoggedAction, involved: Involved): Promise<ActionOutcome> {
    const { party, input, eventId, options } = action;
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
            const decided = await this.#decider.decide(
              { trx, snapshot, now, scores, cache: this.#cache },
              action,
              involved,
              parties.map((p) => locked.row(p)),
            );
            return { writes: decided.writes, answer: decided };
          },
        );
        if (!('written' in answer)) return answer;
        // (Written, so that a dry run is refused as the action would be; rolled back.)
        if (options.dryRun === true) throw new DryRun(answer.answer, answer.writes);
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
    const action = resolveAction(snapshot, input.action);
    const { periods, rateWindow } = windowsOf(snapshot, action, input.timestamp ?? now);
    if (!fresh) {
      // (When fresh, the entry being written is the failed attempt's own.)
      if (this.#cache.writing(key)) return undefined;
      const entry = this.#cache.isShared(key) ? undefined : this.#cache.peek(key, snapshot.version);
      const cached = entry === undefined ? undefined : cachedRow(entry, readsOf(snapshot, party.type, action.name), action.name, periods, rateWindow);
      if (cached !== undefined) return cached;
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
      streakIds: whole.streakIds,
    });
    // (A user may be in groups before their first action.)
    const groups = stored.groups === undefined ? {} : { groups: [...stored.groups].sort() };
    if (stored.row === undefined) return { version: 0, last_recorded: null, level_id: null, sequence: 0, created: true, insert: true, ...groups };
    // The entry at the version read (the cached one, if still at that version) holds all of it: the decision reads nothing more.
    const entry = this.#cache.entry(key, stored.row.version, snapshot.version);
    keepWholeState(entry, stored, whole.lifetimeCategory, periods, rates);
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
    const groupIds = cached !== undefined ? [...cached] : await this.memberships(party.siteId, party.id);
    const groups = reads.groupMissions ? inLockOrder(groupIds.map((id): PartyKey => ({ siteId: party.siteId, type: 'group', id }))) : [];
    return { groupIds, groups, memberships: cached !== undefined ? 'cached' : 'read' };
  }

  /** A page of the recorded actions (GET /users/{u}/actions, GET /admin/actions/log). */
  history(filter: HistoryFilter): Promise<LoggedActionRow[]> {
    return this.repository.history({ db: this.database.db }, filter);
  }

  /** The user's latest recorded actions (at a glance). */
  /**
   * The user's latest recorded actions, each with the points it credited to the user per category
   * (its stored outcome, a group's rewards left out; none once reversed).
   */
  async recentActions(siteId: string, userId: string, limit: number): Promise<RecentAction[]> {
    const rows = await this.repository.recentActions({ db: this.database.db }, siteId, userId, limit);
    return rows.map((row) => ({
      eventId: row.event_id,
      action: row.action,
      value: Number(row.value),
      occurredAt: Number(row.occurred_at),
      pointsEarned: row.reversed_at === null ? pointsEarned(row.outcome) : [],
    }));
  }

  /** Users with a recorded action per day, `from` to `to` (site calendar days), in `trx` when given. */
  activeUsers(siteId: string, from: string, to: string, trx: Trx = { db: this.database.db }): Promise<Array<{ day: string; users: number }>> {
    return this.repository.activeUsers(trx, siteId, from, to);
  }

  /** The ids of the user's groups (sorted). */
  memberships(siteId: string, userId: string): Promise<string[]> {
    return this.groups.ofUser(siteId, userId);
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
      const logged = { party, input, eventId, options: { ...options, reported: true } };
      const decided = await this.#decider.decide(
        within,
        logged,
        involved,
        parties.map((p) => locked.row(p)),
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

export interface RecentAction {
  eventId: string;
  action: string;
  value: number;
  occurredAt: number;
  pointsEarned: Array<{ category: string; amount: number }>;
}

/** The points a stored outcome says its action credited to the user (not a group's), per category in order of first award. */
function pointsEarned(outcome: string): Array<{ category: string; amount: number }> {
  const earned = new Map<string, number>();
  for (const award of (JSON.parse(outcome) as Partial<ActionOutcome>).pointsAwarded ?? [])
    if (award.credited > 0 && award.groupId === undefined) earned.set(award.category, (earned.get(award.category) ?? 0) + award.credited);
  return [...earned].map(([category, amount]) => ({ category, amount }));
}
