// The ledger is the source of truth (SPEC §12): every balance must equal the sum of its entries;
// and what a request wrote, counted by table.
import { expect } from 'vitest';
import type { Db } from '../../src/db/index.js';
import type { ActionEventsTable, DatabaseSchema } from '../../src/db/schema.js';

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

/** How many rows each table holds for the site: compared before and after, it shows what a request wrote. */
export async function rowCounts<T extends keyof DatabaseSchema>(db: Db, siteId: string, tables: readonly T[]): Promise<Record<T, number>> {
  const counts = {} as Record<T, number>;
  for (const table of tables) {
    const row = await db
      .selectFrom(table as 'outbox')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('site_id', '=', siteId)
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return counts;
}

/** A recorded action event row of the user, as a write set or a seed stores it (action "act", value 1). */
export function actionEventRow(siteId: string, eventId: string, userId: string): ActionEventsTable {
  return {
    site_id: siteId,
    event_id: eventId,
    party_type: 'user',
    party_id: userId,
    action: 'act',
    value: 1,
    metadata: '{}',
    occurred_at: 1,
    received_at: 1,
    recorded: 1,
    reason: null,
    outcome: '{}',
    reversed_at: null,
    reversal: null,
    groups: null,
  };
}
