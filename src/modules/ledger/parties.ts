// The parties' rows: a user's or group's row in `parties` is what every writer locks before it
// writes anything of that party (PostgreSQL: the row lock; SQLite: the transaction holds the only
// write lock anyway), and the one order in which a writer that touches several locks them.
import type { Trx } from '../../db/index.js';
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
  // Raising the version takes the row lock on PostgreSQL (SQLite transactions hold the write lock already); the row as locked.
  bumpVersion: precompiled<P, PartyRow>((db, p) =>
    db
      .updateTable('parties')
      .set((eb) => ({ version: eb('version', '+', 1) }))
      .where('site_id', '=', p.siteId)
      .where('party_type', '=', p.type)
      .where('party_id', '=', p.id)
      .returning(['last_recorded', 'level_id', 'version', 'sequence']),
  ),
  read: precompiled<P, PartyRow>((db, p) =>
    db.selectFrom('parties').select(['last_recorded', 'level_id', 'version', 'sequence']).where('site_id', '=', p.siteId).where('party_type', '=', p.type).where('party_id', '=', p.id),
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

/**
 * Creates the parties that do not exist yet and locks them, in lock order, raising their versions
 * so that the action path's cached state of them is not used again; their rows as locked.
 */
export async function lockParties(trx: Trx, parties: readonly PartyKey[], now: number): Promise<Array<{ party: PartyKey; row: PartyRow }>> {
  const locked: Array<{ party: PartyKey; row: PartyRow }> = [];
  for (const party of inLockOrder(parties)) {
    await q.insert(trx, { ...key(party), now });
    const [row] = await q.bumpVersion(trx, key(party));
    if (row === undefined) throw new Error(`party ${party.type}:${party.id} could not be locked`);
    locked.push({ party, row: partyRow(row) });
  }
  return locked;
}

/** The party's row, none when it does not exist; `forUpdate` locks it (PostgreSQL's row lock). */
export async function readParty(trx: Trx, party: PartyKey, forUpdate = false): Promise<PartyRow | undefined> {
  const [row] = await (forUpdate ? q.readForUpdate : q.read)(trx, key(party));
  return row === undefined ? undefined : partyRow(row);
}

/** Creates the party: its row as inserted (locked by this transaction), none when it exists already. */
export async function insertParty(trx: Trx, party: PartyKey, now: number): Promise<PartyRow | undefined> {
  const [row] = await q.insert(trx, { ...key(party), now });
  return row === undefined ? undefined : partyRow(row);
}
