// Migration 0011 (recognitions) on a database that already has user profiles: each profile gets
// its search name, "first last" lowercased from the names in its preferences (null without one),
// so that the recipients search finds users who set their names before the migration. Migrating
// down drops the recognition tables and the column; up again rebuilds them.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/index.js';
import { configurations, freshDatabase } from '../helpers/app.js';
import { migratorOf, tableExists as tableExistsIn } from '../helpers/migrations.js';

describe.each(configurations)('migration 0011_recognitions (%s)', (configuration) => {
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  let database: Database;
  beforeAll(async () => {
    fresh = await freshDatabase(configuration);
    database = fresh.database;
  });
  afterAll(async () => fresh.drop());

  const migrator = () => migratorOf(fresh);
  const tableExists = (table: string) => tableExistsIn(database.db, table);

  const profiles: Array<[site: string, user: string, preferences: Record<string, string>, role: string | null, searchName: string | null]> = [
    ['s1', 'ann', { firstName: 'Ann', lastName: 'Lee' }, null, 'ann lee'],
    ['s1', 'bob', { firstName: 'Bob' }, null, 'bob'],
    ['s1', 'cat', { lastName: 'SMITH' }, null, 'smith'],
    ['s1', 'dan', { firstName: '', lastName: 'Solo' }, null, 'solo'],
    ['s1', 'eve', { firstName: 'Mary Ann', lastName: 'van Dyke', iconUrl: 'https://cdn.example/eve.png', team: 'blue' }, null, 'mary ann van dyke'],
    ['s1', 'fay', { iconUrl: 'https://cdn.example/fay.png', userProfileUrl: 'https://people.example/fay' }, null, null],
    ['s1', 'gus', {}, 'manager', null],
    ['s1', 'hal', { team: 'red' }, null, null],
    ['s1', 'ivy', { firstName: 'ÉLODIE', lastName: 'Ørsted' }, null, 'élodie ørsted'],
    ['s1', 'jo:e', { firstName: 'Jo', lastName: "O'Neil" }, null, "jo o'neil"],
    // The same user id on another site, with another name.
    ['s2', 'ann', { firstName: 'Annabel', lastName: 'Ng' }, null, 'annabel ng'],
  ];
  const searchNames = async () =>
    (
      await sql<{
        site_id: string;
        user_id: string;
        search_name: string | null;
      }>`select site_id, user_id, search_name from user_profiles order by site_id, user_id`.execute(database.db)
    ).rows;
  const expected = profiles
    .map(([site_id, user_id, , , search_name]) => ({ site_id, user_id, search_name }))
    .sort((a, b) => (a.site_id + '\u0000' + a.user_id < b.site_id + '\u0000' + b.user_id ? -1 : 1));

  it('fills in the search name of profiles written before it, from the names in their preferences', async () => {
    const down = await migrator().migrateTo('0010_reversals');
    expect(down.error).toBeUndefined();
    // Later migrations go down first.
    expect(down.results?.map((r) => `${r.direction} ${r.migrationName}`).at(-1)).toEqual('Down 0011_recognitions');
    // Down removed the recognition tables.
    for (const table of ['recognitions', 'recognition_recipients', 'recognition_budgets']) expect(await tableExists(table), table).toBe(false);

    // Profiles as 0010 knew them: no search_name column.
    for (const [site, user, preferences, role] of profiles) {
      await sql`insert into user_profiles (site_id, user_id, preferences, role, updated_at) values (${site}, ${user}, ${JSON.stringify(preferences)}, ${role}, 0)`.execute(
        database.db,
      );
    }

    // Later migrations come back up after it.
    expect((await database.migrate())[0]).toEqual('0011_recognitions');
    expect(await searchNames()).toEqual(expected);
    for (const table of ['recognitions', 'recognition_recipients', 'recognition_budgets']) expect(await tableExists(table), table).toBe(true);

    // The migration wrote only the new column: preferences and roles are as they were.
    const rows = await database.db.selectFrom('user_profiles').select(['site_id', 'user_id', 'preferences', 'role', 'updated_at']).execute();
    for (const [site, user, preferences, role] of profiles) {
      const row = rows.find((r) => r.site_id === site && r.user_id === user);
      expect(row && { preferences: JSON.parse(row.preferences) as unknown, role: row.role, updatedAt: Number(row.updated_at) }).toEqual({
        preferences,
        role,
        updatedAt: 0,
      });
    }
  });

  it('goes down and up again, keeping the profiles and recomputing their search names', async () => {
    const down = await migrator().migrateTo('0010_reversals');
    expect(down.error).toBeUndefined();
    expect(down.results?.map((r) => `${r.direction} ${r.migrationName}`).at(-1)).toEqual('Down 0011_recognitions');
    // The column is gone with the migration; the profiles stay.
    await expect(sql`select search_name from user_profiles`.execute(database.db)).rejects.toThrow();
    expect(Number((await sql<{ n: number }>`select count(*) as n from user_profiles`.execute(database.db)).rows[0]?.n)).toBe(profiles.length);

    // Later migrations come back up after it.
    expect((await database.migrate())[0]).toEqual('0011_recognitions');
    expect(await searchNames()).toEqual(expected);
  });

  it('leaves the recognition tables usable after the round trip', async () => {
    await database.db
      .insertInto('recognitions')
      .values({
        site_id: 's1',
        recognition_id: 'r1',
        exchange_id: 'x',
        category_id: 'c',
        giver_id: 'ann',
        comment: '',
        points: 5,
        budget_window: 0,
        given_at: 1,
      })
      .execute();
    await database.db
      .insertInto('recognition_recipients')
      .values({ site_id: 's1', recognition_id: 'r1', recipient_id: 'bob', points: 5, given_at: 1 })
      .execute();
    await database.db.insertInto('recognition_budgets').values({ site_id: 's1', exchange_id: 'x', giver_id: 'ann', window_start: 0, used: 5 }).execute();
    const [recognition] = await database.db.selectFrom('recognitions').selectAll().execute();
    expect(recognition && Number(recognition.points)).toBe(5);
    // One budget row per giver, exchange and window.
    await expect(
      database.db.insertInto('recognition_budgets').values({ site_id: 's1', exchange_id: 'x', giver_id: 'ann', window_start: 0, used: 1 }).execute(),
    ).rejects.toThrow();
  });
});
