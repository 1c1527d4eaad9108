// The SQL of point expiry (docs/points.md): a party's entries in a category in the order they were
// written (what the lots are replayed from), the parties a sweep must look at, and the sweep's
// per-party mark (point_expiry_sweeps).
import type { Db, Trx } from '../../db/index.js';
import type { PartyType } from '../../db/schema.js';
import type { PartyKey } from '../ledger/write-set.js';

export interface MoveRow {
  category: string;
  credited: number;
  cause: string;
  cause_id: string;
  recorded_at: number;
}

export class ExpiryRepository {
  constructor(private readonly db: Db) {}

  /** Every site with a program. */
  async siteIds(): Promise<string[]> {
    const rows = await this.db.selectFrom('site_programs').select('site_id').orderBy('site_id').execute();
    return rows.map((row) => row.site_id);
  }

  /** The party's entries in these categories, in the order they were written. */
  moves(trx: Trx, party: PartyKey, categories: readonly string[]): Promise<MoveRow[]> {
    return trx.db
      .selectFrom('points_ledger')
      .select(['category', 'credited', 'cause', 'cause_id', 'recorded_at'])
      .where('site_id', '=', party.siteId)
      .where('party_type', '=', party.type)
      .where('party_id', '=', party.id)
      .where('category', 'in', categories)
      .orderBy('recorded_at')
      .orderBy('entry_id')
      .execute();
  }

  /** Whether the party has an expiry entry in the category (points of it expired under a rule since removed). */
  async hasExpiry(trx: Trx, party: PartyKey, category: string): Promise<boolean> {
    const row = await trx.db
      .selectFrom('points_ledger')
      .select('entry_id')
      .where('site_id', '=', party.siteId)
      .where('party_type', '=', party.type)
      .where('party_id', '=', party.id)
      .where('category', '=', category)
      .where('cause', '=', 'expiry')
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Up to `limit` parties with points in the category that earned some before `earnedBefore` and
   * after their last sweep's mark: those that may have points to expire. In (party_type, party_id)
   * order, from after `after` (keyset paging: a round reads each balance of the category once).
   */
  async candidates(
    siteId: string,
    category: string,
    earnedBefore: number,
    limit: number,
    after?: { type: PartyType; id: string },
  ): Promise<Array<{ type: PartyType; id: string }>> {
    let query = this.db
      .selectFrom('point_balances as b')
      .leftJoin('point_expiry_sweeps as s', (join) =>
        join
          .onRef('s.site_id', '=', 'b.site_id')
          .onRef('s.party_type', '=', 'b.party_type')
          .onRef('s.party_id', '=', 'b.party_id')
          .onRef('s.category', '=', 'b.category'),
      )
      .select(['b.party_type', 'b.party_id'])
      .where('b.site_id', '=', siteId)
      .where('b.category', '=', category)
      .where('b.balance', '>', 0)
      .where((eb) => eb.or([eb('s.earned_before', 'is', null), eb('s.earned_before', '<', earnedBefore)]))
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('points_ledger as l')
            .select('l.entry_id')
            .whereRef('l.site_id', '=', 'b.site_id')
            .whereRef('l.party_type', '=', 'b.party_type')
            .whereRef('l.party_id', '=', 'b.party_id')
            .whereRef('l.category', '=', 'b.category')
            .where('l.credited', '>', 0)
            .where('l.recorded_at', '<', earnedBefore)
            .where((eb) => eb.or([eb('s.earned_before', 'is', null), eb('l.recorded_at', '>=', eb.ref('s.earned_before'))])),
        ),
      )
      .orderBy('b.party_type')
      .orderBy('b.party_id')
      .limit(limit);
    if (after !== undefined)
      query = query.where((eb) => eb.or([eb('b.party_type', '>', after.type), eb.and([eb('b.party_type', '=', after.type), eb('b.party_id', '>', after.id)])]));
    const rows = await query.execute();
    return rows.map((row) => ({ type: row.party_type, id: row.party_id }));
  }

  /** Marks the party swept: every point it earned before `earnedBefore` is expired or spent (a mark never moves back). */
  async markSwept(trx: Trx, party: PartyKey, category: string, earnedBefore: number): Promise<void> {
    await trx.db
      .insertInto('point_expiry_sweeps')
      .values({ site_id: party.siteId, party_type: party.type, party_id: party.id, category, earned_before: earnedBefore })
      .onConflict((oc) =>
        oc
          .columns(['site_id', 'party_type', 'party_id', 'category'])
          .doUpdateSet({ earned_before: (eb) => eb.ref('excluded.earned_before') })
          .where('point_expiry_sweeps.earned_before', '<', earnedBefore),
      )
      .execute();
  }
}
