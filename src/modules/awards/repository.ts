// Reads and writes of award accounts, their ledger and on-the-spot codes. Writes run inside the
// caller's transaction, with the user locked; entries are appended by a decision's write set
// (postAwardEntry, ./ledger.ts).
import type { Db, Trx } from '../../db/index.js';
import type { AwardAccountsTable, AwardEntryKind, AwardLedgerTable, OtsCodesTable } from '../../db/schema.js';

export class AwardsRepository {
  constructor(private readonly db: Db) {}

  async account(trx: Trx, siteId: string, userId: string): Promise<AwardAccountsTable | undefined> {
    return trx.db.selectFrom('award_accounts').selectAll().where('site_id', '=', siteId).where('user_id', '=', userId).executeTakeFirst();
  }

  /** Sets what is given of the user's country and verification in one statement, leaving the rest as it is. */
  async setStanding(trx: Trx, siteId: string, userId: string, standing: { country_code?: string | null; verified?: number }, now: number): Promise<void> {
    await trx.db
      .insertInto('award_accounts')
      .values({ site_id: siteId, user_id: userId, country_code: null, verified: 0, ...standing, balance: 0, updated_at: now })
      .onConflict((oc) => oc.columns(['site_id', 'user_id']).doUpdateSet({ ...standing, updated_at: now }))
      .execute();
  }

  /** The sum of the entries not yet available at `now` (credits waiting, and the reversals of them). */
  async pending(trx: Trx, siteId: string, userId: string, now: number): Promise<number> {
    const row = await trx.db
      .selectFrom('award_ledger')
      .select((eb) => eb.fn.sum<number | string | null>('amount').as('pending'))
      .where('site_id', '=', siteId)
      .where('user_id', '=', userId)
      .where('available_at', '>', now)
      .executeTakeFirst();
    return Number(row?.pending ?? 0);
  }

  /** Newest first. */
  async statement(siteId: string, userId: string, limit: number, offset: number): Promise<{ rows: AwardLedgerTable[]; total: number }> {
    const base = this.db.selectFrom('award_ledger').where('site_id', '=', siteId).where('user_id', '=', userId);
    const [rows, count] = await Promise.all([
      base.selectAll().orderBy('posted_at', 'desc').orderBy('entry_id', 'desc').limit(limit).offset(offset).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    ]);
    return { rows, total: Number(count?.n ?? 0) };
  }

  async entry(trx: Trx, siteId: string, userId: string, entryId: string): Promise<AwardLedgerTable | undefined> {
    return trx.db
      .selectFrom('award_ledger')
      .selectAll()
      .where('site_id', '=', siteId)
      .where('user_id', '=', userId)
      .where('entry_id', '=', entryId)
      .executeTakeFirst();
  }

  /** The user's entry of this kind with this reference (debits are idempotent by their reference). */
  async byReference(trx: Trx, siteId: string, userId: string, kind: AwardEntryKind, reference: string): Promise<AwardLedgerTable | undefined> {
    return trx.db
      .selectFrom('award_ledger')
      .selectAll()
      .where('site_id', '=', siteId)
      .where('user_id', '=', userId)
      .where('reference', '=', reference)
      .where('kind', '=', kind)
      .executeTakeFirst();
  }

  async insertCodes(trx: Trx, codes: OtsCodesTable[]): Promise<void> {
    // 9 columns each: well under SQLite's 32,766 parameters per statement.
    for (let i = 0; i < codes.length; i += 1000)
      await trx.db
        .insertInto('ots_codes')
        .values(codes.slice(i, i + 1000))
        .execute();
  }

  /**
   * Claims the code for the user if it is unredeemed and unexpired: one conditional update, so of
   * any number of concurrent redemptions exactly one claims it (PostgreSQL re-checks the condition
   * after waiting for the row; SQLite has one writer).
   */
  async claimCode(trx: Trx, siteId: string, hash: string, userId: string, now: number): Promise<OtsCodesTable | undefined> {
    const [row] = await trx.db
      .updateTable('ots_codes')
      .set({ redeemed_by: userId, redeemed_at: now })
      .where('site_id', '=', siteId)
      .where('code_hash', '=', hash)
      .where('redeemed_at', 'is', null)
      .where('expires_at', '>', now)
      .returningAll()
      .execute();
    return row;
  }

  async code(trx: Trx, siteId: string, hash: string): Promise<OtsCodesTable | undefined> {
    return trx.db.selectFrom('ots_codes').selectAll().where('site_id', '=', siteId).where('code_hash', '=', hash).executeTakeFirst();
  }

  /** A batch's codes: how many, and how many are redeemed. */
  async batch(siteId: string, batchId: string): Promise<{ count: number; redeemed: number }> {
    const row = await this.db
      .selectFrom('ots_codes')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.count<number>('redeemed_at').as('redeemed')])
      .where('site_id', '=', siteId)
      .where('batch_id', '=', batchId)
      .executeTakeFirst();
    return { count: Number(row?.n ?? 0), redeemed: Number(row?.redeemed ?? 0) };
  }
}
