// The ledger's writes: a write set in the caller's transaction (./sqlite.ts, ./postgres.ts), or on
// PostgreSQL outside any transaction with those of other decisions (group commit); the lock every
// writer other than the action path takes (./parties.ts); and the single-row writes (a ledger
// entry, cap totals, a level change, an outbox event) of those writers, each a small write set.
import type { DialectName, Trx } from '../../db/index.js';
import { Batcher } from '../../db/batcher.js';
import { precompiled } from '../../db/precompiled.js';
import type { PartyType, PointsLedgerTable } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { LevelChange } from '../../engine/types.js';
import { mirrorPoints, type AwardSettingsDocument } from '../awards/ledger.js';
import { hasDestination, type SiteDestinations } from '../webhooks/routing.js';
import { levelChangeEvent, levelChangeRow, presentLevelChange, type LevelCause, type PresentedLevelChange } from './level-changes.js';
import { Locked, type Decided } from './locked.js';
import { inLockOrder, lockParties, nextSequence, readParty, setLevel, type PartyRow } from './parties.js';
import { writeAmendmentsOnPostgres, writeOnPostgres } from './postgres.js';
import { writeOnSqlite } from './sqlite.js';
import { lifetimeDelta, outboxRow, unwritable, WriteSet, type OutboxEvent, type PartyKey } from './write-set.js';
import { StaleWrite, type ScoreRow } from './written.js';

type P = { siteId: string; type: PartyType; id: string };

const key = (party: PartyKey): P => ({ siteId: party.siteId, type: party.type, id: party.id });

// A party's balance and lifetime points in a category.
const points = precompiled<P & { category: string }, { balance: number; lifetime: number }>((db, p) =>
  db
    .selectFrom('point_balances')
    .select(['balance', 'lifetime'])
    .where('site_id', '=', p.siteId)
    .where('party_type', '=', p.type)
    .where('party_id', '=', p.id)
    .where('category', '=', p.category),
);

/** Batch statements in flight at once (PostgreSQL): while they run, the next write sets gather. */
const IN_FLIGHT = 2;
/** Write sets in one batch statement at most. */
const BATCH = 64;

const partyKey = (party: PartyKey) => `${party.siteId}\u0000${party.type}\u0000${party.id}`;

/** What a decision made under lock names: its parties (any order, duplicates allowed), its time, and the site's event destinations when it enqueues events. */
export interface DecisionRequest {
  parties: readonly PartyKey[];
  now: number;
  destinations?: SiteDestinations;
}

export class LedgerRepository {
  /** PostgreSQL's group commit: a party is in one batch at a time, so that its sets are written in the order they came. */
  readonly #batches: Batcher<{ trx: Trx; writes: WriteSet }, ScoreRow[]>;
  /** The parties each transaction has locked (a transaction locks all of its parties at once). */
  readonly #held = new WeakMap<Trx, Set<string>>();

  constructor(private readonly dialect: DialectName) {
    this.#batches = new Batcher(async (items) => writeOnPostgres((items[0] as { trx: Trx }).trx, items.map((item) => item.writes)), {
      inFlight: IN_FLIGHT,
      max: BATCH,
      keys: ({ writes }) => [...writes.parties.values()].map(({ party }) => `${party.siteId}\u0000${party.type}\u0000${party.id}`),
    });
  }

  /**
   * Writes the write set in the caller's transaction; throws StaleWrite when a party's version
   * moved since its decision read it, and AppError (so rolling the transaction back) when a
   * balance would leave the exact integers. Returns the leaderboard scores as stored.
   */
  async apply(trx: Trx, writes: WriteSet): Promise<ScoreRow[]> {
    if (this.dialect !== 'postgres') return writeOnSqlite(trx, writes);
    const [written] = await writeOnPostgres(trx, [writes]);
    if (written instanceof StaleWrite) throw written;
    await writeAmendmentsOnPostgres(trx, writes);
    return written as ScoreRow[];
  }

  /**
   * PostgreSQL, outside any transaction: writes the write set together with those other callers
   * commit meanwhile (group commit: one statement and one commit for a batch), and resolves once
   * the statement that wrote it has committed. Each set is written or refused on its own: a stale
   * one throws StaleWrite here and the others are written; a set that fails the statement (an
   * event id used before, a balance out of range) makes the batch's sets be written again one
   * by one, so that only it fails. A set with amendments (WriteSet.hasAmendments) needs a lock.
   */
  commit(trx: Trx, writes: WriteSet): Promise<ScoreRow[]> {
    if (writes.hasAmendments) return Promise.reject(new Error('a write set with amendments is written under lock (apply or write)'));
    return this.#batches.submit({ trx, writes });
  }

  /**
   * The one "decide, then write" entry for decisions made under lock. Locks the parties named (in
   * the lock order, raising their versions), hands `decide` their rows as locked and a write set
   * naming them (Locked); `decide` reads what it needs (it writes nothing) and returns every row
   * its decision writes and its answer. The set is checked before anything of it is stored (an
   * amount the ledger cannot hold exactly: AppError amount_out_of_range; a party it did not lock:
   * an error) and written at once; a set that changes nothing is not written. Decisions made one
   * after the other in one transaction see each other's writes; such a transaction locks all its
   * parties with its first lock (lock(), or its first decision). Returns the answer and the
   * leaderboard scores as stored, for the ranking structures after the commit.
   */
  async write<T>(trx: Trx, request: DecisionRequest, decide: (locked: Locked) => Promise<Decided<T>>): Promise<{ answer: T; scores: ScoreRow[] }> {
    const locked = new Locked(trx, request.now, await this.#lock(trx, request.parties, request.now, true), request.destinations);
    const { writes, answer } = await decide(locked);
    const stranger = [...writes.parties.values()].map((w) => w.party).concat([...writes.balances.values()].map((b) => ({ siteId: b.siteId, type: b.partyType, id: b.partyId }))).find((party) => !locked.has(party));
    if (stranger !== undefined) throw new Error(`party ${stranger.type}:${stranger.id} is written by a decision that did not lock it`);
    const problem = unwritable(writes);
    if (problem !== undefined) throw new AppError('amount_out_of_range', problem);
    return { answer, scores: writes.empty ? [] : await this.apply(trx, writes) };
  }

  /**
   * Locks the parties named (in any order, duplicates allowed) in the one order every writer uses
   * (lockOrder, ./parties.ts), creating those that do not exist yet and raising their versions so
   * that the action path's cached state of them is not used again; for a transaction that writes
   * rows of its own before its decisions (write()).
   */
  async lock(trx: Trx, parties: readonly PartyKey[], now: number): Promise<void> {
    await this.#lock(trx, parties, now, false);
  }

  /** The party's row; it must be locked by the caller's transaction. */
  async party(trx: Trx, party: PartyKey): Promise<PartyRow> {
    const row = await readParty(trx, party);
    if (row === undefined) throw new Error(`party ${party.type}:${party.id} is not locked`);
    return row;
  }

  async lifetime(trx: Trx, party: PartyKey, category: string): Promise<number> {
    const [row] = await points(trx, { ...key(party), category });
    return Number(row?.lifetime ?? 0);
  }

  async balance(trx: Trx, party: PartyKey, category: string): Promise<number> {
    const [row] = await points(trx, { ...key(party), category });
    return Number(row?.balance ?? 0);
  }

  /**
   * Appends a ledger entry and moves the balance beside it, and lifetime points: credits raise them,
   * a reversal (a credit taken back) lowers them, other debits leave them. A user's entry in the
   * award point category moves their award account too, in the same transaction.
   */
  async post(trx: Trx, entry: PointsLedgerTable, awards: AwardSettingsDocument | undefined): Promise<void> {
    const writes = new WriteSet();
    writes.post(entry, lifetimeDelta(entry));
    await this.apply(trx, writes);
    await mirrorPoints(trx, awards, entry);
  }

  async addEarnings(trx: Trx, party: PartyKey, category: string, period: 'day' | 'year', periodStart: number, amount: number): Promise<void> {
    const writes = new WriteSet();
    writes.addEarnings(party, category, period, periodStart, amount);
    await this.apply(trx, writes);
  }

  /** Sets the user's level, keeps the change in its history and tells webhooks (when the site has a destination for it); returns it as the API shows it. */
  async recordLevelChange(trx: Trx, destinations: SiteDestinations, party: PartyKey, change: LevelChange, cause: LevelCause, at: number, now: number): Promise<PresentedLevelChange> {
    await setLevel(trx, party, change.to?.id ?? null);
    const writes = new WriteSet();
    writes.levelChanges.push(levelChangeRow(party, change, cause, at));
    const event = levelChangeEvent(change, cause, at);
    if (hasDestination({ eventType: event.type, data: event.data }, destinations)) writes.outbox.push(outboxRow(party, await nextSequence(trx, party), event, now));
    await this.apply(trx, writes);
    return presentLevelChange(change);
  }

  /**
   * Appends an outbox event with the party's next sequence number (a decision's write set numbers
   * its own), when the site has a destination for it: otherwise nothing, and no number is taken.
   */
  async enqueue(trx: Trx, destinations: SiteDestinations, party: PartyKey, event: OutboxEvent, now: number): Promise<void> {
    if (!hasDestination({ eventType: event.type, data: event.data }, destinations)) return;
    const writes = new WriteSet();
    writes.outbox.push(outboxRow(party, await nextSequence(trx, party), event, now));
    await this.apply(trx, writes);
  }

  /** Locks the parties a transaction's first lock names; later, only reads (`read`) the rows of parties it holds. */
  async #lock(trx: Trx, parties: readonly PartyKey[], now: number, read: boolean): Promise<Array<{ party: PartyKey; row: PartyRow }>> {
    const held = this.#held.get(trx);
    if (held === undefined) {
      const locked = await lockParties(trx, parties, now);
      this.#held.set(trx, new Set(locked.map(({ party }) => partyKey(party))));
      return locked;
    }
    const rows: Array<{ party: PartyKey; row: PartyRow }> = [];
    for (const party of inLockOrder(parties)) {
      if (!held.has(partyKey(party))) throw new Error(`party ${party.type}:${party.id} was not locked with the transaction's other parties: name them all to its first lock`);
      const row = read ? await readParty(trx, party) : undefined;
      if (row !== undefined) rows.push({ party, row });
    }
    return rows;
  }
}
