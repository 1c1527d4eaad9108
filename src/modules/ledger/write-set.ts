// A decision as rows: everything one decision writes, collected while it is built and written at
// once by LedgerRepository (./repository.ts; ./sqlite.ts and ./postgres.ts per store), so that the
// database sees one batch of statements (on PostgreSQL one statement, one round trip) rather than
// a statement per row as the decision goes. Rows that touch the same key are merged here (a
// balance moved twice, a badge earned twice), since one statement may not change a row twice.
// Only what a subscriber needs is written: an event of a type the site has no destination for
// gets no outbox row.
import { uuidv7 } from '../../uuid.js';
import type { ScoreDelta } from '../../engine/elements/leaderboards.js';
import { hasDestination, type SiteDestinations } from '../webhooks/routing.js';
import type {
  ActionEventsTable,
  LevelChangesTable,
  MissionCompletionsTable,
  MissionProgressTable,
  OutboxTable,
  PartyType,
  PointsLedgerTable,
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

interface PartyWrite {
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
      this.balances.set(key, { siteId: entry.site_id, partyType: entry.party_type, partyId: entry.party_id, category: entry.category, credited: entry.credited, lifetime });
    }
  }

  addEarnings(party: PartyKey, category: string, period: 'day' | 'year', periodStart: number, amount: number): void {
    const key = `${partyKey(party)}\u0000${category}\u0000${period}\u0000${periodStart}`;
    const known = this.earnings.get(key);
    if (known !== undefined) known.amount += amount;
    else this.earnings.set(key, { siteId: party.siteId, partyType: party.type, partyId: party.id, category, period, periodStart, amount });
  }

  addTrophy(party: PartyKey, badgeId: string, at: number): void {
    const key = `${partyKey(party)}\u0000${badgeId}`;
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

  #partyWrite(party: PartyKey): PartyWrite {
    const write = this.parties.get(partyKey(party));
    if (write === undefined) throw new Error(`party ${party.type}:${party.id} is not in the write set`);
    return write;
  }
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

/** How a ledger entry moves lifetime points (what `questline verify` recomputes them with). */
export function lifetimeDelta(entry: Pick<PointsLedgerTable, 'cause' | 'credited'>): number {
  return entry.cause === 'reversal' ? entry.credited : Math.max(0, entry.credited);
}
