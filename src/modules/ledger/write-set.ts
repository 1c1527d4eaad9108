// A decision as rows: everything one decision writes, collected while it is built and written at
// once by LedgerRepository (./repository.ts; ./sqlite.ts and ./postgres.ts per store), so that the
// database sees one batch of statements (on PostgreSQL one statement, one round trip) rather than
// a statement per row as the decision goes. Rows that touch the same key are merged here (a
// balance moved twice, a badge earned twice), since one statement may not change a row twice.
// Only what a subscriber needs is written: an event of a type the site has no destination for
// gets no outbox row. Besides new rows, a decision made under lock (LedgerRepository.write) may
// change what earlier decisions stored: a reversal removes completions, gives supply back, resets
// progress, recounts trophies, takes its streak days back and marks its event reversed; award
// accounts move with their entries; the streak sweep records its notices.
import { uuidv7 } from '../../uuid.js';
import { isPointsAmount } from '../../engine/amounts.js';
import type { ScoreDelta } from '../../engine/elements/leaderboards.js';
import { hasDestination, type SiteDestinations } from '../program/event-routing.js';
import type {
  ActionEventsTable,
  AwardLedgerTable,
  LevelChangesTable,
  MissionCompletionsTable,
  MissionProgressTable,
  OutboxTable,
  PartyType,
  PointsLedgerTable,
  StreakDaysTable,
  StreakMilestonesTable,
  StreakNoticesTable,
} from '../../db/schema.js';

export interface PartyKey {
  siteId: string;
  type: PartyType;
  id: string;
}

/** A locked party's row as the decision read it: what it writes back starts from there. */
export interface PartyState {
  version: number;
  lastRecorded: string | null;
  /** The last outbox sequence number given to the party's events. */
  sequence: number;
}

/** An event for the party's webhooks (SPEC §12): its type, when it happened and its `data`. */
export interface OutboxEvent {
  type: string;
  data: Record<string, unknown>;
  occurredAt: number;
}

export interface PartyWrite {
  party: PartyKey;
  /** The version the decision read: the row is written only if it still has it. */
  expected: number;
  /** The row does not exist yet: it is inserted (created then), and the set is written only if no other writer inserted it first. */
  createdAt?: number;
  version: number;
  lastRecorded: string | null;
  sequence: number;
  /** The new level (null: none); undefined leaves it as it is. */
  levelId?: string | null;
}

export interface BalanceDelta {
  siteId: string;
  partyType: PartyType;
  partyId: string;
  category: string;
  credited: number;
  lifetime: number;
}

export interface EarningsDelta {
  siteId: string;
  partyType: PartyType;
  partyId: string;
  category: string;
  period: 'day' | 'year';
  periodStart: number;
  amount: number;
}

export interface TrophyDelta {
  siteId: string;
  partyType: PartyType;
  partyId: string;
  badgeId: string;
  count: number;
  first: number;
  last: number;
}

/** A user's award account in a write set: its balance as read (the user locked), and what the set moves it by. */
export interface AwardAccountMove {
  siteId: string;
  userId: string;
  read: number;
  moved: number;
  /** When the last entry was posted; undefined while the set posts none. */
  updatedAt?: number;
}

const partyKey = (party: PartyKey) => `${party.type}\u0000${party.id}`;

export class WriteSet {
  readonly events: ActionEventsTable[] = [];
  /** One row per party, mission and rule: the last given wins. */
  readonly progress = new Map<string, MissionProgressTable>();
  readonly completions: MissionCompletionsTable[] = [];
  readonly ledger: PointsLedgerTable[] = [];
  readonly balances = new Map<string, BalanceDelta>();
  readonly earnings = new Map<string, EarningsDelta>();
  readonly trophies = new Map<string, TrophyDelta>();
  readonly levelChanges: LevelChangesTable[] = [];
  readonly outbox: OutboxTable[] = [];
  readonly activeDays = new Map<string, { siteId: string; day: string; userId: string }>();
  /** Leaderboard scores moved, one per party, board and window. */
  readonly scores = new Map<string, ScoreDelta & { siteId: string; partyId: string }>();
  readonly parties = new Map<string, PartyWrite>();
  /** Users whose groups the decision took from a cache: the set is written only if they still are these. */
  readonly memberships = new Map<string, { siteId: string; userId: string; groups: readonly string[] }>();
  // What a decision made under lock changes of earlier decisions' rows (see reversal.ts), and award accounts.
  readonly removedCompletions = new Map<string, { siteId: string; completionId: string; removedAt: number }>();
  readonly suppliesReturned = new Map<string, { siteId: string; missionId: string; units: number }>();
  /** Units of missions' site-wide supply the set takes (of `supply` in all): written first, and only while that many are left. */
  readonly supplyClaims = new Map<string, { siteId: string; missionId: string; units: number; supply: number }>();
  readonly progressResets = new Map<string, { siteId: string; partyType: PartyType; partyId: string; missionId: string }>();
  /** A badge's trophy case entry as recounted from the party's live completions (a count of 0: the entry goes). */
  readonly trophyCounts = new Map<string, TrophyDelta>();
  readonly reversedEvents = new Map<string, { siteId: string; eventId: string; reversedAt: number; reversal: string }>();
  readonly awardEntries: AwardLedgerTable[] = [];
  readonly awardAccounts = new Map<string, AwardAccountMove>();
  /** Live actions each counted site-local day of a user's streak gains (src/modules/streaks/). */
  readonly streakDays = new Map<string, StreakDaysTable>();
  /** Streak milestones paid: their key (user, streak, run, length) refuses a second payment. */
  readonly streakMilestones: StreakMilestonesTable[] = [];
  // Amendments of the streaks: actions a reversal takes back from their days, and the sweep's notices.
  readonly streakDaysTaken = new Map<string, StreakDaysTable>();
  readonly streakNotices: StreakNoticesTable[] = [];

  /** `destinations`: the program snapshot's, needed by a write set that enqueues events. */
  constructor(private readonly destinations?: SiteDestinations) {}

  /**
   * Names a party whose row this write set saves (its version raised by one when `changed`, its
   * outbox sequence advanced past the events added): `state` is its row as the decision read it.
   * The whole set is written only if every party named still has the version read (else
   * LedgerRepository.apply throws StaleWrite and writes nothing). With `createdAt`, the party is
   * new: its row is inserted, and the set is written only if nobody inserted it first.
   */
  party(party: PartyKey, state: PartyState, changed = true, createdAt?: number): void {
    if (this.parties.has(partyKey(party))) throw new Error(`party ${party.type}:${party.id} is in the write set already`);
    this.parties.set(partyKey(party), {
      party,
      expected: state.version,
      version: state.version + (changed ? 1 : 0),
      lastRecorded: state.lastRecorded,
      sequence: state.sequence,
      ...(createdAt !== undefined ? { createdAt } : {}),
    });
  }

  /** Raises the version of every party named by one (a set written under lock: LedgerRepository.write). */
  raiseVersions(): void {
    for (const write of this.parties.values()) write.version = write.expected + 1;
  }

  /** The party's row as this write set leaves it. */
  saved(party: PartyKey): PartyState | undefined {
    const write = this.parties.get(partyKey(party));
    return write === undefined ? undefined : { version: write.version, lastRecorded: write.lastRecorded, sequence: write.sequence };
  }

  /** Sets what the party's row keeps as its last recorded action. */
  lastRecorded(party: PartyKey, lastRecorded: string | null): void {
    this.#partyWrite(party).lastRecorded = lastRecorded;
  }

  setProgress(party: PartyKey, missionId: string, windowStart: number, rules: ReadonlyArray<{ ruleId: string; current: number }>, now: number): void {
    if (this.progressResets.size > 0 && this.progressResets.has(`${partyKey(party)}\u0000${missionId}`))
      throw new Error(`mission ${missionId} is reset by the write set`);
    for (const { ruleId, current } of rules) {
      this.progress.set(`${partyKey(party)}\u0000${missionId}\u0000${ruleId}`, {
        site_id: party.siteId,
        party_type: party.type,
        party_id: party.id,
        mission_id: missionId,
        rule_id: ruleId,
        window_start: windowStart,
        current,
        updated_at: now,
      });
    }
  }

  /**
   * A ledger entry, and the balance beside it moved with it; lifetime points move by `lifetime`
   * (credits raise them, a reversal lowers them, other debits leave them).
   */
  post(entry: PointsLedgerTable, lifetime: number): void {
    this.ledger.push(entry);
    const key = `${entry.party_type}\u0000${entry.party_id}\u0000${entry.category}`;
    const known = this.balances.get(key);
    if (known !== undefined) {
      known.credited += entry.credited;
      known.lifetime += lifetime;
    } else {
      this.balances.set(key, {
        siteId: entry.site_id,
        partyType: entry.party_type,
        partyId: entry.party_id,
        category: entry.category,
        credited: entry.credited,
        lifetime,
      });
    }
  }

  /** What the set moves the party's balance and lifetime points in the category by; undefined when nothing. */
  balanceMoved(party: PartyKey, category: string): BalanceDelta | undefined {
    return this.balances.get(`${partyKey(party)}\u0000${category}`);
  }

  addEarnings(party: PartyKey, category: string, period: 'day' | 'year', periodStart: number, amount: number): void {
    const key = `${partyKey(party)}\u0000${category}\u0000${period}\u0000${periodStart}`;
    const known = this.earnings.get(key);
    if (known !== undefined) known.amount += amount;
    else this.earnings.set(key, { siteId: party.siteId, partyType: party.type, partyId: party.id, category, period, periodStart, amount });
  }

  addTrophy(party: PartyKey, badgeId: string, at: number): void {
    const key = `${partyKey(party)}\u0000${badgeId}`;
    if (this.trophyCounts.has(key)) throw new Error(`badge ${badgeId} is recounted by the write set`);
    const known = this.trophies.get(key);
    if (known !== undefined) {
      known.count += 1;
      known.first = Math.min(known.first, at);
      known.last = Math.max(known.last, at);
    } else {
      this.trophies.set(key, { siteId: party.siteId, partyType: party.type, partyId: party.id, badgeId, count: 1, first: at, last: at });
    }
  }

  /** Sets the party's level and keeps the change in its history (its webhook is the caller's). */
  changeLevel(party: PartyKey, change: LevelChangesTable): void {
    this.#partyWrite(party).levelId = change.to_level;
    this.levelChanges.push(change);
  }

  /**
   * Appends an outbox event with the party's next sequence number, if the site has a destination
   * for it; one that has none is not written and takes no number.
   */
  enqueue(party: PartyKey, event: OutboxEvent, now: number): void {
    const write = this.#partyWrite(party);
    if (this.destinations === undefined) throw new Error("a write set that enqueues events needs the site's destinations");
    if (!hasDestination({ eventType: event.type, data: event.data }, this.destinations)) return;
    write.sequence += 1;
    this.outbox.push(outboxRow(party, write.sequence, event, now));
  }

  /** Whether some endpoint of the site subscribes to the type (events with no site URL): what announcing it costs otherwise is this lookup. */
  subscribes(eventType: string): boolean {
    return this.destinations?.subscribedTypes.has(eventType) === true;
  }

  /** Moves the party's scores on the boards and windows the deltas name (the stored rows come back from apply()). */
  addScores(siteId: string, partyId: string, deltas: readonly ScoreDelta[]): void {
    for (const delta of deltas) {
      const key = `${partyId}\u0000${delta.boardId}\u0000${delta.windowStart}`;
      const known = this.scores.get(key);
      if (known !== undefined) {
        known.delta += delta.delta;
        known.at = delta.at;
      } else {
        this.scores.set(key, { ...delta, siteId, partyId });
      }
    }
  }

  /** Writes the set only if the user's groups are still `groups` (else LedgerRepository.apply throws StaleWrite). */
  expectGroups(siteId: string, userId: string, groups: readonly string[]): void {
    this.memberships.set(`${siteId}\u0000${userId}`, { siteId, userId, groups });
  }

  markActive(siteId: string, day: string, userId: string): void {
    this.activeDays.set(`${userId}\u0000${day}`, { siteId, day, userId });
  }

  /** Marks a live completion removed (it no longer counts, and its badge is recounted by the caller). */
  removeCompletion(siteId: string, completionId: string, at: number): void {
    this.removedCompletions.set(completionId, { siteId, completionId, removedAt: at });
  }

  /**
   * Takes a unit of the mission's site-wide supply (`supply` units in all) when the set is
   * written: if other decisions took what was left since this one read it, the whole set is
   * refused (SupplyTaken) and the decision is made again.
   */
  claimSupply(siteId: string, missionId: string, supply: number): void {
    const known = this.supplyClaims.get(missionId);
    if (known !== undefined) known.units += 1;
    else this.supplyClaims.set(missionId, { siteId, missionId, units: 1, supply });
  }

  /** Gives a unit of the mission's site-wide supply back (never below none used). */
  returnSupply(siteId: string, missionId: string): void {
    const known = this.suppliesReturned.get(missionId);
    if (known !== undefined) known.units += 1;
    else this.suppliesReturned.set(missionId, { siteId, missionId, units: 1 });
  }

  /** Restarts the party's progress in the mission from zero: its rows go (a set may not also set them). */
  resetProgress(party: PartyKey, missionId: string): void {
    const prefix = `${partyKey(party)}\u0000${missionId}\u0000`;
    for (const key of this.progress.keys()) if (key.startsWith(prefix)) throw new Error(`mission ${missionId} has progress in the write set`);
    this.progressResets.set(`${partyKey(party)}\u0000${missionId}`, { siteId: party.siteId, partyType: party.type, partyId: party.id, missionId });
  }

  /** Sets the badge's trophy case entry to what the party's live completions say (the last count given wins). */
  recountTrophy(party: PartyKey, badgeId: string, live: { count: number; first: number; last: number }): void {
    const key = `${partyKey(party)}\u0000${badgeId}`;
    if (this.trophies.has(key)) throw new Error(`badge ${badgeId} is earned in the write set`);
    this.trophyCounts.set(key, { siteId: party.siteId, partyType: party.type, partyId: party.id, badgeId, ...live });
  }

  /** Marks the action event reversed, keeping what the reversal did (JSON) for a repeat. */
  markReversed(siteId: string, eventId: string, at: number, reversal: string): void {
    this.reversedEvents.set(eventId, { siteId, eventId, reversedAt: at, reversal });
  }

  /** Names the user's award account with its balance as read; entries the set appends carry the balance after them. */
  awardAccount(siteId: string, userId: string, balance: number): void {
    this.awardAccounts.set(`${siteId}\u0000${userId}`, { siteId, userId, read: balance, moved: 0 });
  }

  /** The account's balance as this set leaves it; undefined when the set has not named the account. */
  awardBalance(siteId: string, userId: string): number | undefined {
    const account = this.awardAccounts.get(`${siteId}\u0000${userId}`);
    return account === undefined ? undefined : account.read + account.moved;
  }

  /** Appends an entry to a named award account and moves its balance; the entry as it will be stored. */
  postAward(entry: Omit<AwardLedgerTable, 'balance_after'>): AwardLedgerTable {
    const account = this.awardAccounts.get(`${entry.site_id}\u0000${entry.user_id}`);
    if (account === undefined) throw new Error(`the award account of ${entry.user_id} is not in the write set`);
    account.moved += entry.amount;
    account.updatedAt = entry.posted_at;
    const stored = { ...entry, balance_after: account.read + account.moved };
    this.awardEntries.push(stored);
    return stored;
  }

  /** Counts `actions` more live actions in the user's streak day (site-local day number). */
  countStreakDay(party: PartyKey, streakId: string, day: number, actions: number): void {
    addToStreakDay(this.streakDays, party, streakId, day, actions);
  }

  /** Records a streak milestone paid (with its points and badge, which the caller adds). */
  payStreakMilestone(row: StreakMilestonesTable): void {
    this.streakMilestones.push(row);
  }

  /** Takes live actions (one by default) back from the user's streak day (never below none: the day then stops counting). */
  uncountStreakDay(party: PartyKey, streakId: string, day: number, actions = 1): void {
    addToStreakDay(this.streakDaysTaken, party, streakId, day, actions);
  }

  /** Records a notice of the streak sweep (a freeze used, a run broken); one already recorded is left as it is. */
  addStreakNotice(row: StreakNoticesTable): void {
    this.streakNotices.push(row);
  }

  /**
   * Whether the set writes nothing: no row, and no party changed (its version, level or new row);
   * a decision that changes nothing is not written at all.
   */
  get empty(): boolean {
    const rows = [this.events, this.completions, this.ledger, this.levelChanges, this.outbox, this.awardEntries, this.streakMilestones, this.streakNotices];
    const keyed = [
      this.progress,
      this.balances,
      this.earnings,
      this.trophies,
      this.activeDays,
      this.scores,
      this.removedCompletions,
      this.suppliesReturned,
      this.supplyClaims,
      this.progressResets,
      this.trophyCounts,
      this.reversedEvents,
      this.streakDays,
      this.streakDaysTaken,
    ];
    if (rows.some((list) => list.length > 0) || keyed.some((map) => map.size > 0)) return false;
    return [...this.parties.values()].every((w) => w.version === w.expected && w.createdAt === undefined && w.levelId === undefined);
  }

  /** Whether the set holds amendments: rows only a decision made under lock writes (on PostgreSQL a second statement). */
  get hasAmendments(): boolean {
    return (
      this.removedCompletions.size +
        this.suppliesReturned.size +
        this.progressResets.size +
        this.trophyCounts.size +
        this.reversedEvents.size +
        this.awardEntries.length +
        this.streakDaysTaken.size +
        this.streakNotices.length >
      0
    );
  }

  #partyWrite(party: PartyKey): PartyWrite {
    const write = this.parties.get(partyKey(party));
    if (write === undefined) throw new Error(`party ${party.type}:${party.id} is not in the write set`);
    return write;
  }
}

/** Adds `actions` to the user's streak day in `days` (one row per user, streak and day: merged). */
function addToStreakDay(days: Map<string, StreakDaysTable>, party: PartyKey, streakId: string, day: number, actions: number): void {
  const key = `${party.id}\u0000${streakId}\u0000${day}`;
  const known = days.get(key);
  if (known !== undefined) known.actions += actions;
  else days.set(key, { site_id: party.siteId, user_id: party.id, streak_id: streakId, day, actions });
}

/**
 * An outbox row in the envelope webhooks carry (SPEC §12): {eventId, eventType, occurredAt,
 * sequence, context: {siteId}, data}. `data` names the party as `user: {userId}` or
 * `group: {groupId}`; the dispatcher adds the user's names.
 */
export function outboxRow(party: PartyKey, sequence: number, event: OutboxEvent, now: number): OutboxTable {
  const eventId = `evt_${uuidv7()}`;
  const who = party.type === 'user' ? { user: { userId: party.id } } : { group: { groupId: party.id } };
  return {
    site_id: party.siteId,
    event_id: eventId,
    event_type: event.type,
    party_type: party.type,
    party_id: party.id,
    sequence,
    payload: JSON.stringify({
      eventId,
      eventType: event.type,
      occurredAt: new Date(event.occurredAt).toISOString(),
      sequence,
      context: { siteId: party.siteId },
      data: { ...who, ...event.data },
    }),
    occurred_at: event.occurredAt,
    created_at: now,
    routed_at: null,
  };
}

/**
 * How a ledger entry moves lifetime points (what `questline verify` recomputes them with). A
 * reversal undoes the whole credit it asked to take back (`requested`), also when points of it
 * had expired and it took back less (docs/points.md).
 */
export function lifetimeDelta(entry: Pick<PointsLedgerTable, 'cause' | 'credited' | 'requested'>): number {
  return entry.cause === 'reversal' ? entry.requested : Math.max(0, entry.credited);
}

/**
 * Why the write set cannot be written (the first amount the ledger cannot hold exactly), or
 * undefined when it can: a decision is refused before anything of it is stored.
 */
export function unwritable(writes: WriteSet): string | undefined {
  for (const entry of writes.ledger) {
    if (!isPointsAmount(entry.requested) || !isPointsAmount(entry.credited))
      return `The ${entry.category} entry of ${String(entry.credited)} is not a whole number of points the ledger holds`;
  }
  // (Loops rather than arrays of the amounts: every decision under lock passes here.)
  const outOfRange = 'An amount would leave the range of whole numbers the ledger holds exactly';
  for (const b of writes.balances.values()) if (!Number.isSafeInteger(b.credited) || !Number.isSafeInteger(b.lifetime)) return outOfRange;
  for (const e of writes.earnings.values()) if (!Number.isSafeInteger(e.amount)) return outOfRange;
  for (const e of writes.awardEntries) if (!Number.isSafeInteger(e.amount) || !Number.isSafeInteger(e.balance_after)) return outOfRange;
  const notFinite = 'A progress or score would leave the range of finite numbers';
  for (const p of writes.progress.values()) if (!Number.isFinite(p.current)) return notFinite;
  for (const s of writes.scores.values()) if (!Number.isFinite(s.delta)) return notFinite;
  return undefined;
}
