// A decision made under lock (LedgerRepository.write): the parties it named, locked, with their
// rows as locked; the write set it fills, which names each of them already (so that it can number
// their outbox events and set their levels); and their points as the decision leaves them so far,
// so that a decision that moves a balance and then reports it reads its own writes.
import type { Trx } from '../../db/index.js';
import { precompiled } from '../../db/precompiled.js';
import type { PartyType } from '../../db/schema.js';
import type { SiteDestinations } from '../program/event-routing.js';
import type { LockedRow } from './parties.js';
import { WriteSet, type PartyKey } from './write-set.js';

/** What a decision comes to: every row it writes, and what its caller answers. */
export interface Decided<T> {
  writes: WriteSet;
  answer: T;
}

type P = { siteId: string; type: PartyType; id: string };

const points = precompiled<P & { category: string }, { balance: number; lifetime: number }>((db, p) =>
  db
    .selectFrom('point_balances')
    .select(['balance', 'lifetime'])
    .where('site_id', '=', p.siteId)
    .where('party_type', '=', p.type)
    .where('party_id', '=', p.id)
    .where('category', '=', p.category),
);

/** A party's balance and lifetime points in a category, as stored. */
export async function storedPoints(trx: Trx, party: PartyKey, category: string): Promise<{ balance: number; lifetime: number }> {
  const [row] = await points(trx, { siteId: party.siteId, type: party.type, id: party.id, category });
  return { balance: Number(row?.balance ?? 0), lifetime: Number(row?.lifetime ?? 0) };
}

const partyKey = (party: PartyKey) => `${party.siteId}\u0000${party.type}\u0000${party.id}`;

export class Locked {
  readonly #rows = new Map<string, LockedRow>();
  readonly #parties: ReadonlyArray<{ party: PartyKey; row: LockedRow }>;
  #writes: WriteSet | undefined;

  /** `trx`: for the decision's reads; it writes nothing itself. */
  constructor(
    readonly trx: Trx,
    readonly now: number,
    rows: ReadonlyArray<{ party: PartyKey; row: LockedRow }>,
    private readonly destinations: SiteDestinations | undefined,
  ) {
    this.#parties = rows;
    for (const { party, row } of rows) this.#rows.set(partyKey(party), row);
  }

  /**
   * The decision's rows: add to it (the parties are named; written, the set raises their
   * versions). Made when first asked for: the action path decides into a set of its own.
   */
  get writes(): WriteSet {
    if (this.#writes === undefined) {
      this.#writes = new WriteSet(this.destinations);
      for (const { party, row } of this.#parties)
        this.#writes.party(party, { version: row.version, lastRecorded: row.last_recorded, sequence: row.sequence }, false);
    }
    return this.#writes;
  }

  has(party: PartyKey): boolean {
    return this.#rows.has(partyKey(party));
  }

  /** The party's row as locked, before this decision (`created`: by the lock). */
  row(party: PartyKey): LockedRow {
    const row = this.#rows.get(partyKey(party));
    if (row === undefined) throw new Error(`party ${party.type}:${party.id} is not locked by the decision`);
    return row;
  }

  /** The party's balance in the category as this decision leaves it so far. */
  async balance(party: PartyKey, category: string): Promise<number> {
    return (await storedPoints(this.trx, party, category)).balance + (this.#writes?.balanceMoved(party, category)?.credited ?? 0);
  }

  /** The party's lifetime points in the category as this decision leaves them so far. */
  async lifetime(party: PartyKey, category: string): Promise<number> {
    return (await storedPoints(this.trx, party, category)).lifetime + (this.#writes?.balanceMoved(party, category)?.lifetime ?? 0);
  }
}
