import type { Kysely } from 'kysely';

// The expiry sweep's index (docs/points.md): a party's ledger entries in a category by when they
// were written. The sweep asks, per candidate party, whether it has a credit recorded between its
// last sweep's mark and the cutoff, and replays the party's entries in that order; the index of
// 0003 (site, party, category) left both to scan every entry of the party in the category. This
// one has that index as its prefix, so it replaces it (the ledger is written on every action: one
// index, not two).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('points_ledger_party_recorded')
    .on('points_ledger')
    .columns(['site_id', 'party_type', 'party_id', 'category', 'recorded_at'])
    .execute();
  await db.schema.dropIndex('points_ledger_party').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('points_ledger_party').on('points_ledger').columns(['site_id', 'party_type', 'party_id', 'category']).execute();
  await db.schema.dropIndex('points_ledger_party_recorded').execute();
}
