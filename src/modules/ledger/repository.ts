// The ledger's writes: a write set in the caller's transaction (./sqlite.ts, ./postgres.ts), or on
// PostgreSQL outside any transaction with those of other decisions (group commit); and the one
// "decide, then write" entry of every decision made under lock (the action path's locked one
// included): the parties it names are locked (./parties.ts), the caller decides from them
// (./locked.ts), and the decision's write set, checked, is written at once.
import { sql } from 'kysely';
import type { DialectName, Trx } from '../../db/index.js';
import type { PointsLedgerTable } from '../../db/schema.js';
import { Batcher } from '../../db/batcher.js';
import { precompiled } from '../../db/precompiled.js';
import { AppError } from '../../errors.js';
import type { SiteDestinations } from '../program/event-routing.js';
import { Locked, storedPoints, type Decided } from './locked.js';
import { inLockOrder, lockParties, readParty, type LockedRow } from './parties.js';
import { writeAmendmentsOnPostgres, writeOnPostgres } from './postgres.js';
import { announceEarned } from './points-earned.js';
import { writeOnSqlite } from './sqlite.js';
import { unwritable, type PartyKey, type WriteSet } from './write-set.js';
import { StaleWrite, SupplyTaken, type ScoreRow } from './written.js';

const supply = {
  create: precompiled<{ siteId: string; missionId: string }>((db, p) =>
    db
      .insertInto('mission_supply')
      .values({ site_id: p.siteId, mission_id: p.missionId, used: 0 })
      .onConflict((oc) => oc.columns(['site_id', 'mission_id']).doNothing()),
  ),
  // Takes the units only while that many are left: an atomic conditional update, exact across parties and nodes.
  claim: precompiled<{ siteId: string; missionId: string; units: number; supply: number }, { used: number }>((db, p) =>
    db
      .updateTable('mission_supply')
      .set((eb) => ({ used: eb('used', '+', p.units) }))
      .where('site_id', '=', p.siteId)
      .where('mission_id', '=', p.missionId)
      .where(sql<number>`used + ${p.units}`, '<=', p.supply)
      .returning('used'),
  ),
};

/** Batch statements in flight at once (PostgreSQL): while they run, the next write sets gather. */
const IN_FLIGHT = 2;
/** Write sets in one batch statement at most. */
const BATCH = 64;

const partyKey = (party: PartyKey) => `${party.siteId}\u0000${party.type}\u0000${party.id}`;
const notLocked = (party: PartyKey) => new Error(`party ${party.type}:${party.id} is written by a decision that did not lock it`);

/** A ledger entry as a party's history lists it: the mission of its completion and the action of its event, when it has them. */
export type LedgerEntryRow = Omit<PointsLedgerTable, 'site_id' | 'party_type' | 'party_id'> & { mission_id: string | null; action: string | null };

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
    this.#batches = new Batcher(
      async (items) =>
        writeOnPostgres(
          (items[0] as { trx: Trx }).trx,
          items.map((item) => item.writes),
        ),
      {
        inFlight: IN_FLIGHT,
        max: BATCH,
        keys: ({ writes }) => [...writes.parties.values()].map(({ party }) => `${party.siteId}\u0000${party.type}\u0000${party.id}`),
      },
    );
  }

  /**
   * Writes the write set in the caller's transaction; throws StaleWrite when a party's version
   * moved since its decision read it, SupplyTaken when fewer units of a mission's supply are left
   * than it claims, and AppError when a balance would leave the exact integers (each rolls the
   * transaction back). Returns the leaderboard scores as stored.
   */
  async apply(trx: Trx, writes: WriteSet): Promise<ScoreRow[]> {
    await announceEarned(trx, writes);
    // The site-wide supply first: a set that takes more than is left is refused before any of it is written.
    for (const claim of writes.supplyClaims.values()) {
      await supply.create(trx, claim);
      if ((await supply.claim(trx, claim)).length === 0) throw new SupplyTaken();
    }
    let written: ScoreRow[];
    if (this.dialect !== 'postgres') written = writeOnSqlite(trx, writes);
    else {
      const [batch] = await writeOnPostgres(trx, [writes]);
      if (batch instanceof StaleWrite) throw batch;
      await writeAmendmentsOnPostgres(trx, writes);
      written = batch as ScoreRow[];
    }
    return written;
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
    if (writes.hasAmendments || writes.supplyClaims.size > 0)
      return Promise.reject(new Error('a write set with amendments or supply claims is written under lock (apply or write)'));
    return announceEarned(trx, writes).then(() => this.#batches.submit({ trx, writes }));
  }

  /**
   * The one "decide, then write" entry for decisions made under lock. Locks the parties named (in
   * the lock order), hands `decide` their rows as locked and a write set naming them (Locked);
   * `decide` reads what it needs (it writes nothing) and returns every row its decision writes
   * (in that set or one of its own naming the same parties) and its answer. The set is checked
   * before anything of it is stored (an amount the ledger cannot hold exactly: AppError
   * amount_out_of_range; a party it did not lock: an error) and written at once, raising the
   * version of every party it names, so that no cached state of them is used again; a set that
   * changes nothing is not written. Decisions made one after the other in one transaction see
   * each other's writes; such a transaction locks all its parties with its first lock (lock(), or
   * its first decision). Returns the answer and the leaderboard scores as stored, for the ranking
   * structures after the commit.
   */
  async write<T>(trx: Trx, request: DecisionRequest, decide: (locked: Locked) => Promise<Decided<T>>): Promise<{ answer: T; scores: ScoreRow[] }> {
    const locked = new Locked(trx, request.now, await this.#lock(trx, request.parties, request.now, true), request.destinations);
    const { writes, answer } = await decide(locked);
    for (const { party } of writes.parties.values()) if (!locked.has(party)) throw notLocked(party);
    for (const b of writes.balances.values()) {
      const party: PartyKey = { siteId: b.siteId, type: b.partyType, id: b.partyId };
      if (!locked.has(party)) throw notLocked(party);
    }
    const problem = unwritable(writes);
    if (problem !== undefined) throw new AppError('amount_out_of_range', problem);
    if (writes.empty) return { answer, scores: [] };
    writes.raiseVersions();
    return { answer, scores: await this.apply(trx, writes) };
  }

  /**
   * Locks the parties named (in any order, duplicates allowed) in the one order every writer uses
   * (lockOrder, ./parties.ts), creating those that do not exist yet; for a transaction that
   * writes rows of its own before its decisions (write()). The lock changes no party: their
   * versions move with the decisions' write sets.
   */
  async lock(trx: Trx, parties: readonly PartyKey[], now: number): Promise<void> {
    await this.#lock(trx, parties, now, false);
  }

  /**
   * A page of the party's ledger entries, newest first, with what each came from: the mission a
   * credit or reversal belongs to (its completion) and the action that caused it; and how many
   * entries the party has in all.
   */
  async entries(trx: Trx, party: PartyKey, limit: number, offset: number): Promise<{ rows: LedgerEntryRow[]; total: number }> {
    const ofParty = trx.db
      .selectFrom('points_ledger as pl')
      .where('pl.site_id', '=', party.siteId)
      .where('pl.party_type', '=', party.type)
      .where('pl.party_id', '=', party.id);
    const [rows, count] = await Promise.all([
      ofParty
        .leftJoin('mission_completions as mc', (join) => join.onRef('mc.site_id', '=', 'pl.site_id').onRef('mc.completion_id', '=', 'pl.cause_id'))
        .leftJoin('action_events as ae', (join) => join.onRef('ae.site_id', '=', 'pl.site_id').onRef('ae.event_id', '=', 'pl.event_id'))
        .select([
          'pl.entry_id',
          'pl.category',
          'pl.requested',
          'pl.credited',
          'pl.cause',
          'pl.cause_id',
          'pl.event_id',
          'pl.reason',
          'pl.occurred_at',
          'pl.recorded_at',
          'mc.mission_id',
          'ae.action',
        ])
        .orderBy('pl.recorded_at', 'desc')
        .orderBy('pl.entry_id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute(),
      ofParty.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  }

  /** The party's lifetime points in the category, as stored. */
  async lifetime(trx: Trx, party: PartyKey, category: string): Promise<number> {
    return (await storedPoints(trx, party, category)).lifetime;
  }

  /** Locks the parties a transaction's first lock names; later, only reads (`read`) the rows of parties it holds. */
  async #lock(trx: Trx, parties: readonly PartyKey[], now: number, read: boolean): Promise<Array<{ party: PartyKey; row: LockedRow }>> {
    const held = this.#held.get(trx);
    if (held === undefined) {
      const locked = await lockParties(trx, this.dialect, parties, now);
      this.#held.set(trx, new Set(locked.map(({ party }) => partyKey(party))));
      return locked;
    }
    const rows: Array<{ party: PartyKey; row: LockedRow }> = [];
    for (const party of inLockOrder(parties)) {
      if (!held.has(partyKey(party)))
        throw new Error(`party ${party.type}:${party.id} was not locked with the transaction's other parties: name them all to its first lock`);
      const row = read ? await readParty(trx, party) : undefined;
      if (row !== undefined) rows.push({ party, row });
    }
    return rows;
  }
}
