// Migration 0019 (the expiry sweep's index, docs/points.md): points_ledger_party_recorded (site,
// party, category, recorded_at) replaces points_ledger_party, its prefix. It runs after 0018 on a
// fresh migrate; down puts the old index back and drops the new one, up again swaps them, the
// ledger's rows untouched.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/index.js';
import { configurations, freshDatabase } from '../helpers/app.js';
import { migratorOf } from '../helpers/migrations.js';

describe.each(configurations)('migration 0019_expiry_sweep_index (%s)', (configuration) => {
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  let database: Database;
  beforeAll(async () => {
    fresh = await freshDatabase(configuration);
    database = fresh.database;
  });
  afterAll(async () => fresh.drop());

  /** Whether the index exists. */
  const index = async (name: string) => {
    const query =
      configuration === 'embedded'
        ? sql<{ n: number }>`select count(*) as n from sqlite_master where type = 'index' and name = ${name}`
        : sql<{ n: number }>`select count(*) as n from pg_indexes where schemaname = current_schema() and indexname = ${name}`;
    return Number((await query.execute(database.db)).rows[0]?.n) === 1;
  };

  it('runs after 0018_leaderboard_results on a fresh migrate, the new index in place of the old', async () => {
    const names = (await migratorOf(fresh).getMigrations()).filter((m) => m.executedAt !== undefined).map((m) => m.name);
    expect(names.indexOf('0019_expiry_sweep_index')).toBe(names.indexOf('0018_leaderboard_results') + 1);
    expect(await index('points_ledger_party_recorded')).toBe(true);
    expect(await index('points_ledger_party')).toBe(false);
  });

  it('goes down to 0018, the old index back, and up again, the ledger untouched', async () => {
    await database.db
      .insertInto('points_ledger')
      .values({
        site_id: 's',
        entry_id: 'pts_1',
        party_type: 'user',
        party_id: 'ann',
        category: 'Points',
        requested: 10,
        credited: 10,
        cause: 'adjustment',
        cause_id: 'x',
        event_id: null,
        reason: 'test',
        occurred_at: 1,
        recorded_at: 1,
      })
      .execute();
    expect((await migratorOf(fresh).migrateTo('0018_leaderboard_results')).error).toBeUndefined();
    expect(await index('points_ledger_party')).toBe(true);
    expect(await index('points_ledger_party_recorded')).toBe(false);
    expect((await database.migrate())[0]).toBe('0019_expiry_sweep_index');
    expect(await index('points_ledger_party_recorded')).toBe(true);
    expect(await index('points_ledger_party')).toBe(false);
    const rows = await database.db.selectFrom('points_ledger').select(['entry_id', 'credited']).execute();
    expect(rows.map((row) => [row.entry_id, Number(row.credited)])).toEqual([['pts_1', 10]]);
  });
});
