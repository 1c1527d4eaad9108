// The ledger is the source of truth (SPEC §12): every balance must equal the sum of its entries.
import { expect } from 'vitest';
import type { Db } from '../../src/db/index.js';

/** Every party's balance in every category of the site equals the sum of its ledger credits. */
export async function expectBalancesMatchLedger(db: Db, siteId: string): Promise<void> {
  const sums = await db
    .selectFrom('points_ledger')
    .select(['party_type', 'party_id', 'category', (eb) => eb.fn.sum<number>('credited').as('total')])
    .where('site_id', '=', siteId)
    .groupBy(['party_type', 'party_id', 'category'])
    .execute();
  const rows = await db.selectFrom('point_balances').selectAll().where('site_id', '=', siteId).execute();
  const key = (row: { party_type: string; party_id: string; category: string }) => `${row.party_type}/${row.party_id}/${row.category}`;
  expect(Object.fromEntries(rows.map((row) => [key(row), Number(row.balance)]))).toEqual(Object.fromEntries(sums.map((row) => [key(row), Number(row.total)])));
}
