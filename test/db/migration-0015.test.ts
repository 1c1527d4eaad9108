// Migration 0015 (the overview's figures, docs/analytics.md): the change rows, the daily rollup and
// its per-site state, and the index of deliveries by site, status and creation. It runs after
// 0014 on a fresh migrate; down drops them (and the index), up again makes them empty; the
// rollup's primary key holds one figure per site, day, series and key.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/index.js';
import { configurations, freshDatabase } from '../helpers/app.js';
import { migratorOf, tableExists } from '../helpers/migrations.js';

const TABLES = ['analytics_changes', 'analytics_days', 'analytics_sites'];

describe.each(configurations)('migration 0015_analytics (%s)', (configuration) => {
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  let database: Database;
  beforeAll(async () => {
    fresh = await freshDatabase(configuration);
    database = fresh.database;
  });
  afterAll(async () => fresh.drop());

  /** Whether the deliveries' index by site and status exists. */
  const deliveryIndex = async () => {
    const query =
      configuration === 'embedded'
        ? sql<{ n: number }>`select count(*) as n from sqlite_master where type = 'index' and name = 'webhook_deliveries_site_status'`
        : sql<{ n: number }>`select count(*) as n from pg_indexes where schemaname = current_schema() and indexname = 'webhook_deliveries_site_status'`;
    return Number((await query.execute(database.db)).rows[0]?.n) === 1;
  };

  it('runs after 0014_program_versions on a fresh migrate, its tables empty', async () => {
    const names = (await migratorOf(fresh).getMigrations()).filter((m) => m.executedAt !== undefined).map((m) => m.name);
    expect(names.indexOf('0015_analytics')).toBe(names.indexOf('0014_program_versions') + 1);
    for (const table of TABLES) expect(await tableExists(database.db, table), table).toBe(true);
    expect(await deliveryIndex()).toBe(true);
  });

  it('goes down to 0014, dropping its tables and the index, and up again', async () => {
    await database.db.insertInto('analytics_days').values({ site_id: 's', day: '2026-06-15', series: 'actions', key: 'play', value: 3 }).execute();
    expect((await migratorOf(fresh).migrateTo('0014_program_versions')).error).toBeUndefined();
    for (const table of TABLES) expect(await tableExists(database.db, table), table).toBe(false);
    expect(await deliveryIndex()).toBe(false);
    expect((await database.migrate())[0]).toBe('0015_analytics');
    for (const table of TABLES) expect(await tableExists(database.db, table), table).toBe(true);
    expect(await database.db.selectFrom('analytics_days').selectAll().execute()).toEqual([]);
  });

  it('keeps one figure per site, day, series and key', async () => {
    const figure = { site_id: 's', day: '2026-06-15', series: 'points' as const, key: 'Points', value: 10 };
    await database.db.insertInto('analytics_days').values(figure).execute();
    await expect(database.db.insertInto('analytics_days').values(figure).execute()).rejects.toThrow();
    await database.db
      .insertInto('analytics_days')
      .values({ ...figure, value: -4 })
      .onConflict((oc) => oc.columns(['site_id', 'day', 'series', 'key']).doUpdateSet({ value: sql<number>`analytics_days.value + excluded.value` }))
      .execute();
    expect(Number((await database.db.selectFrom('analytics_days').select('value').where('key', '=', 'Points').executeTakeFirst())?.value)).toBe(6);
  });
});
