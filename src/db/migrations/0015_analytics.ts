import type { Kysely } from 'kysely';

// The console's overview (docs/analytics.md): a site's figures per day of its time zone, kept as
// daily rollups, so that a view reads some hundred rows instead of the site's history.
// - analytics_changes: what each written write set changed in those figures (actions recorded,
//   points, completions added or removed, levels reached) and each webhook delivery made or
//   settled, as instants and amounts, written by the ledger and the webhooks module in the same
//   statement or transaction as the change. A fold consumes them (deletes them in the transaction
//   that adds them to the rollup), so each is counted exactly once however transactions interleave
//   or commit, on any number of nodes.
// - analytics_days: the rollup, one row per site, day, series and key (an action, a category, a
//   mission, a level), in the time zone analytics_sites names.
// - analytics_sites: per site, the zone the rollup is in and the first day it was built from; a
//   site whose zone differs from its program's is built again from its history.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('analytics_changes')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('change_id', 'text', (c) => c.notNull())
    // JSON: [[kind, instant, key, amount], …] (src/db/analytics-changes.ts).
    .addColumn('changes', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('analytics_changes_pk', ['site_id', 'change_id'])
    .execute();

  await db.schema
    .createTable('analytics_days')
    .addColumn('site_id', 'text', (c) => c.notNull())
    // YYYY-MM-DD in the zone of analytics_sites.timezone.
    .addColumn('day', 'text', (c) => c.notNull())
    // actions | users | points | completions | levels | webhooks
    .addColumn('series', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('analytics_days_pk', ['site_id', 'day', 'series', 'key'])
    .execute();

  await db.schema
    .createTable('analytics_sites')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('timezone', 'text', (c) => c.notNull())
    // The first day the rollup holds (earlier days are not kept).
    .addColumn('built_from', 'text', (c) => c.notNull())
    // The first day whose daily_active_users rows are all of this zone (a zone change leaves the
    // days before counted in the old one): active users of earlier days come from the history.
    .addColumn('users_from', 'text', (c) => c.notNull())
    .addColumn('built_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('analytics_sites_pk', ['site_id'])
    .execute();

  // Webhook health per site: deliveries of each status by creation time (the overview's counts per
  // day, and the pending backlog), without reading the site's other deliveries.
  await db.schema.createIndex('webhook_deliveries_site_status').on('webhook_deliveries').columns(['site_id', 'status', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('webhook_deliveries_site_status').execute();
  for (const table of ['analytics_sites', 'analytics_days', 'analytics_changes']) await db.schema.dropTable(table).execute();
}
