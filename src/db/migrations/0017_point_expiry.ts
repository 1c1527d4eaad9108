import type { Kysely } from 'kysely';

// Point expiry (docs/points.md). The ledger holds the expiries themselves (cause `expiry`); this
// table keeps, per party and expiring category, the instant before which every point earned has
// been expired or spent, as the sweep last left it: the next sweep looks only at parties that
// earned since, so a sweep reads what expires now, not every balance's history. Only the sweep
// writes it, so a program without expiry has no row here and its action path no statement more.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('point_expiry_sweeps')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('party_type', 'text', (c) => c.notNull())
    .addColumn('party_id', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('earned_before', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('point_expiry_sweeps_pk', ['site_id', 'party_type', 'party_id', 'category'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('point_expiry_sweeps').execute();
}
