// The ledger's writes: a write set in the caller's transaction (./sqlite.ts, ./postgres.ts), or on
// PostgreSQL outside any transaction with those of other decisions (group commit); the lock every
// writer other than the action path takes (./parties.ts); and the single-row writes (a ledger
// entry, cap totals, a level change, an outbox event) of those writers, each a small write set.
import type { DialectName, Trx } from '../../db/index.js';
import { Batcher } from '../../db/batcher.js';
import { precompiled } from '../../db/precompiled.js';
import type { PartyType, PointsLedgerTable } from '../../db/schema.js';
import type { LevelChange } from '../../engine/types.js';
import { mirrorPoints, type AwardSettingsDocument } from '../awards/ledger.js';
import { hasDestination, type SiteDestinations } from '../webhooks/routing.js';
import { levelChangeEvent, levelChangeRow, presentLevelChange, type LevelCause, type PresentedLevelChange } from './level-changes.js';
import { lockParties, nextSequence, readParty, setLevel, type PartyRow } from './parties.js';
import { writeAmendmentsOnPostgres, writeOnPostgres } from './postgres.js';
import { writeOnSqlite } from './sqlite.js';
import { lifetimeDelta, outboxRow, WriteSet, type OutboxEvent, type PartyKey } from './write-set.js';
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

export class LedgerRepository {
  /** PostgreSQL's group commit: a party is in one batch at a time, so that its sets are written in the order they came. */
  readonly #batches: Batcher<{ trx: Trx; writes: WriteSet }, ScoreRow[]>;

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
   * For writers other than the action path: locks the parties named (in any order, duplicates
   * allowed) in the one order every writer uses (lockOrder, ./parties.ts), creating those that do
   * not exist yet and raising their versions so that the action path's cached state of them is
   * not used again.
   */
  async lock(trx: Trx, parties: readonly PartyKey[], now: number): Promise<void> {
    await lockParties(trx, parties, now);
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
}

