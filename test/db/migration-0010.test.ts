// Migration 0010 (reversals) on a database that already has completions: each completion gets the
// badge its mission rewards in the site's program, so that removing it takes that badge back and
// `questline verify` can recount trophy cases; migrating down and up again keeps the data.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/index.js';
import { configurations, freshDatabase } from '../helpers/app.js';
import { migratorOf } from '../helpers/migrations.js';

describe.each(configurations)('migration 0010_reversals (%s)', (configuration) => {
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  let database: Database;
  beforeAll(async () => {
    fresh = await freshDatabase(configuration);
    database = fresh.database;
  });
  afterAll(async () => fresh.drop());

  it('fills in the badge of completions written before it, from the mission in the site’s program', async () => {
    const migrator = migratorOf(fresh);
    const down = await migrator.migrateTo('0009_webhooks');
    expect(down.error).toBeUndefined();
    // Later migrations go down first.
    expect(down.results?.map((r) => `${r.direction} ${r.migrationName}`).at(-1)).toEqual('Down 0010_reversals');

    const program = {
      missions: [
        { id: 'm-badge', rewards: { points: [], badge: 'b-gold' } },
        { id: 'm-plain', rewards: { points: [] } },
      ],
    };
    await sql`insert into sites (site_id, name, timezone, created_at) values ('s1', 'S', 'UTC', 0)`.execute(database.db);
    await sql`insert into site_programs (site_id, version, document, webhook_secret, updated_at) values ('s1', 1, ${JSON.stringify(program)}, null, 0)`.execute(
      database.db,
    );
    for (const [id, mission] of [
      ['c1', 'm-badge'],
      ['c2', 'm-plain'],
      ['c3', 'm-badge'],
    ]) {
      await sql`insert into mission_completions (site_id, completion_id, party_type, party_id, mission_id, window_start, event_id, completed_at, recorded_at, removed_at)
                values ('s1', ${id}, 'user', 'ann', ${mission}, 0, 'e', 0, 0, null)`.execute(database.db);
    }

    expect((await database.migrate())[0]).toEqual('0010_reversals');
    const rows = await database.db
      .selectFrom('mission_completions')
      .select(['completion_id', 'badge_id'])
      .where('site_id', '=', 's1')
      .orderBy('completion_id')
      .execute();
    expect(rows).toEqual([
      { completion_id: 'c1', badge_id: 'b-gold' },
      { completion_id: 'c2', badge_id: null },
      { completion_id: 'c3', badge_id: 'b-gold' },
    ]);
  });
});
