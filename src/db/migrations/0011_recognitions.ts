import { sql, type Kysely } from 'kysely';

// Recognitions (SPEC §9). A recognition is one gift from a giver to one or many recipients; each
// recipient's row carries its amount and the time, so that "received" reads newest first from an
// index. A giver's budget use is kept per exchange and calendar window (0 for a budget that never
// resets), charged in the gift's transaction; `questline verify` recomputes it from the gifts.
// Profiles gain a lowercased "first last" name for the recipients search.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('recognitions')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('recognition_id', 'text', (c) => c.notNull())
    .addColumn('exchange_id', 'text', (c) => c.notNull())
    .addColumn('category_id', 'text', (c) => c.notNull())
    .addColumn('giver_id', 'text', (c) => c.notNull())
    .addColumn('comment', 'text', (c) => c.notNull())
    .addColumn('points', 'bigint', (c) => c.notNull())
    // The budget window the gift was charged to (0: a budget that never resets).
    .addColumn('budget_window', 'bigint', (c) => c.notNull())
    .addColumn('given_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('recognitions_pk', ['site_id', 'recognition_id'])
    .execute();
  await db.schema.createIndex('recognitions_giver').on('recognitions').columns(['site_id', 'giver_id', 'given_at']).execute();

  await db.schema
    .createTable('recognition_recipients')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('recognition_id', 'text', (c) => c.notNull())
    .addColumn('recipient_id', 'text', (c) => c.notNull())
    .addColumn('points', 'bigint', (c) => c.notNull())
    .addColumn('given_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('recognition_recipients_pk', ['site_id', 'recognition_id', 'recipient_id'])
    .execute();
  await db.schema.createIndex('recognition_recipients_received').on('recognition_recipients').columns(['site_id', 'recipient_id', 'given_at']).execute();

  await db.schema
    .createTable('recognition_budgets')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('exchange_id', 'text', (c) => c.notNull())
    .addColumn('giver_id', 'text', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('used', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('recognition_budgets_pk', ['site_id', 'exchange_id', 'giver_id', 'window_start'])
    .execute();

  await db.schema.alterTable('user_profiles').addColumn('search_name', 'text').execute();
  const profiles = await sql<{ site_id: string; user_id: string; preferences: string }>`select site_id, user_id, preferences from user_profiles`.execute(db);
  for (const row of profiles.rows) {
    const name = searchName(JSON.parse(row.preferences) as Record<string, string>);
    if (name !== null) await sql`update user_profiles set search_name = ${name} where site_id = ${row.site_id} and user_id = ${row.user_id}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('user_profiles').dropColumn('search_name').execute();
  await db.schema.dropTable('recognition_budgets').execute();
  await db.schema.dropTable('recognition_recipients').execute();
  await db.schema.dropTable('recognitions').execute();
}

/** "first last", lowercased, for name search (null without a name). Migrations keep their own copy of the rule. */
function searchName(preferences: { firstName?: string; lastName?: string }): string | null {
  const name = [preferences.firstName, preferences.lastName].filter((part) => part !== undefined && part !== '').join(' ');
  return name === '' ? null : name.toLowerCase();
}
