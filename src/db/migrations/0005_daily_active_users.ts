import type { Kysely } from 'kysely';

// Who was active on which day (the site's calendar day of the action's timestamp), so that the
// effect of backdated actions on active users is visible (interface document §1, SPEC §8).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('daily_active_users')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('daily_active_users_pk', ['site_id', 'day', 'user_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('daily_active_users').execute();
}
