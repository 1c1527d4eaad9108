// The parties' rows: a user's or group's row in `parties` is what every writer locks before it
// writes anything of that party (PostgreSQL: the row lock; SQLite: the transaction holds the only
// write lock anyway), and the one order in which a writer that touches several locks them.
import type { DialectName, Trx } from '../../db/index.js';
import { precompiled } from '../../db/precompiled.js';
import type { PartyType } from '../../db/schema.js';
import type { PartyKey } from './write-set.js';

export interface PartyRow {
  last_recorded: string | null;
  level_id: string | null;
  version: number;
  /** The last outbox sequence number given to the party's events. */
  sequence: number;
}

type P = { siteId: string; type: PartyType; id: string };

const q = {
  // Creates a party: its row as inserted (locked by the inserting transaction); none when it exists already.
  insert: precompiled<P & { now: number }, PartyRow>((db, p) =>
    db
      .insertInto('parties')
      .values({ site_id: p.siteId, party_type: p.type, party_id: p.id, created_at: p.now, last_recorded: null, level_id: null, sequence: 0, version: 0 })
      .onConflict((oc) => oc.columns(['site_id', 'party_type', 'party_id']).doNothing())
      .returning(['last_recorded', 'level_id', 'version', 'sequence']),
  ),
  read: precompiled<P, PartyRow>((db, p) =>
    db
      .selectFrom('parties')
      .select(['last_recorded', 'level_id', 'version', 'sequence'])
      .where('site_id', '=', p.siteId)
      .where('party_type', '=', p.type)
      .where('party_id', '=', p.id),
  ),
  readForUpdate: precompiled<P, PartyRow>((db, p) =>
    db
      .selectFrom('parties')
      .select(['last_recorded', 'level_id', 'version', 'sequence'])
      .where('site_id', '=', p.siteId)
      .where('party_type', '=', p.type)
      .where('party_id', '=', p.id)
      .forUpdate(),
  ),
};

const key = (party: PartyKey): P => ({ siteId: party.siteId, type: party.type, id: party.id });

// PostgreSQL returns bigint columns as strings.
const partyRow = (row: PartyRow): PartyRow => ({ ...row, version: Number(row.version), sequence: Number(row.sequence) });

const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The one order in which every writer locks parties, so that two writers locking some of the same
 * parties never wait for each other in a cycle (on PostgreSQL a deadlock, which fails one of
 * them): groups before users, then by id (in UTF-16 code units, as `Array.prototype.sort`), and by
 * site last (a transaction's parties are of one site). The action path locks the groups a user's
 * action advances and then the user, which is this order.
 */
export function lockOrder(a: PartyKey, b: PartyKey): number {
  if (a.type !== b.type) return a.type === 'group' ? -1 : 1;
  return byCodeUnits(a.id, b.id) || byCodeUnits(a.siteId, b.siteId);
}

/** The parties in lock order, each once. */
export function inLockOrder(parties: readonly PartyKey[]): PartyKey[] {
  const unique = new Map(parties.map((party) => [`${party.siteId}\u0000${party.type}\u0000${party.id}`, party]));
  return [...unique.values()].sort(lockOrder);
}

/** A party's row as a writer locked it; `created` when the lock created it (nothing else of the party is stored). */
export type LockedRow = PartyRow & { created?: true };

/**
 * Locks the parties in lock order, creating those that do not exist yet; their rows as locked.
 * The lock raises nothing: the write set that changes a party raises its version
 * (LedgerRepository.write), so that a decision that changes nothing writes nothing.
 */
export async function lockParties(
  trx: Trx,
  dialect: DialectName,
  parties: readonly PartyKey[],
  now: number,
): Promise<Array<{ party: PartyKey; row: LockedRow }>> {
  const locked: Array<{ party: PartyKey; row: LockedRow }> = [];
  for (const party of inLockOrder(parties)) locked.push({ party, row: await lockParty(trx, dialect, party, now) });
  return locked;
}

/**
 * PostgreSQL: the row lock (SELECT … FOR UPDATE); SQLite: a read, the transaction holding the
 * database's only write lock anyway. A new party: its inserted row, or (another writer inserted it
 * meanwhile) that row, locked.
 */
async function lockParty(trx: Trx, dialect: DialectName, party: PartyKey, now: number): Promise<LockedRow> {
  const forUpdate = dialect === 'postgres';
  const existing = await readParty(trx, party, forUpdate);
  if (existing !== undefined) return existing;
  const [inserted] = await q.insert(trx, { ...key(party), now });
  if (inserted !== undefined) return { ...partyRow(inserted), created: true };
  const row = await readParty(trx, party, forUpdate);
  if (row === undefined) throw new Error(`party ${party.type}:${party.id} could not be locked`);
  return row;
}

/** The party's row, none when it does not exist; `forUpdate` locks it (PostgreSQL's row lock). */
export async function readParty(trx: Trx, party: PartyKey, forUpdate = false): Promise<PartyRow | undefined> {
  const [row] = await (forUpdate ? q.readForUpdate : q.read)(trx, key(party));
  return row === undefined ? undefined : partyRow(row);
}
