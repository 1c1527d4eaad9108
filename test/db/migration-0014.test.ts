// Migration 0014 (program versions): the history table, with each site's program as it stands when
// the migration runs kept as its first version (who made it not known). Migrating down drops the
// table, up again rebuilds it from the programs then; the primary key holds one row per version.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/index.js';
import { configurations, freshDatabase } from '../helpers/app.js';
import { migratorOf, tableExists } from '../helpers/migrations.js';

describe.each(configurations)('migration 0014_program_versions (%s)', (configuration) => {
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  let database: Database;
  beforeAll(async () => {
    fresh = await freshDatabase(configuration);
    database = fresh.database;
  });
  afterAll(async () => fresh.drop());

  const versions = async () =>
    (await database.db.selectFrom('program_versions').selectAll().orderBy('site_id').execute()).map((row) => ({
      ...row,
      changed_at: Number(row.changed_at),
    }));

  it('runs after 0013_awards on a fresh migrate, its table empty', async () => {
    const names = (await migratorOf(fresh).getMigrations()).filter((m) => m.executedAt !== undefined).map((m) => m.name);
    expect(names.indexOf('0014_program_versions')).toBe(names.indexOf('0013_awards') + 1);
    expect(await versions()).toEqual([]);
  });

  it("keeps each site's current program as its first version when it runs; down drops the table", async () => {
    expect((await migratorOf(fresh).migrateTo('0013_awards')).error).toBeUndefined();
    expect(await tableExists(database.db, 'program_versions')).toBe(false);
    for (const [siteId, version] of [
      ['a', 7],
      ['b', 0],
    ] as const) {
      await database.db.insertInto('sites').values({ site_id: siteId, name: siteId, timezone: 'UTC', created_at: 1_000 }).execute();
      await database.db
        .insertInto('site_programs')
        .values({
          site_id: siteId,
          version,
          document: `{"site":{"name":"${siteId}"}}`,
          webhook_secret: 'whsec_never-kept',
          previous_webhook_secret: null,
          previous_webhook_secret_until: null,
          updated_at: 5_000 + version,
        })
        .execute();
    }
    await database.db.insertInto('sites').values({ site_id: 'c', name: 'c', timezone: 'UTC', created_at: 1_000 }).execute();

    expect((await database.migrate())[0]).toEqual('0014_program_versions');
    expect(await versions()).toEqual([
      { site_id: 'a', version: 7, document: '{"site":{"name":"a"}}', changed_by: null, changed_at: 5_007, summary: null, restored_from: null },
      { site_id: 'b', version: 0, document: '{"site":{"name":"b"}}', changed_by: null, changed_at: 5_000, summary: null, restored_from: null },
    ]);

    // One row per site and version.
    const again = { site_id: 'a', version: 7, document: '{}', changed_by: 'cli', changed_at: 1, summary: null, restored_from: null };
    await expect(database.db.insertInto('program_versions').values(again).execute()).rejects.toThrow();
  });
});
