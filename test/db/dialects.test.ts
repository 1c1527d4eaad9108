// The storage layer on both dialects: idempotent migrations, site_id on every table, transactions,
// number round-trips, the SQLite statement cache (reuse without ever serving stale rows), and
// PostgreSQL's named statements for precompiled queries.
import Sqlite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Database } from '../../src/db/index.js';
import { precompiled } from '../../src/db/precompiled.js';
import { configurations, freshDatabase } from '../helpers/app.js';

const site = (siteId: string, name = `Site ${siteId}`) => ({ site_id: siteId, name, timezone: 'UTC', created_at: Date.now() });

describe.each(configurations)('database (%s)', (configuration) => {
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  let database: Database;
  beforeAll(async () => {
    fresh = await freshDatabase(configuration);
    database = fresh.database;
  });
  afterAll(async () => fresh.drop());

  it('runs each migration once', async () => {
    expect(await database.migrate()).toEqual([]);
    // A second process (another node, the CLI) opening the same database finds nothing to do.
    const other = openDatabase(fresh.config);
    try {
      expect(await other.migrate()).toEqual([]);
      expect(await other.migrate()).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('gives every table a site_id column', async () => {
    const schema = fresh.config.kind === 'postgres' ? fresh.config.schema : undefined;
    const tables = (await database.db.introspection.getTables())
      .filter((table) => schema === undefined || table.schema === schema)
      .filter((table) => !table.name.startsWith('kysely_migration'));
    expect(tables.map((table) => table.name)).toEqual(expect.arrayContaining(['sites', 'clients', 'instance_settings']));
    const without = tables.filter((table) => !table.columns.some((column) => column.name === 'site_id')).map((table) => table.name);
    expect(without).toEqual([]);
  });

  it('runs precompiled queries as named prepared statements on PostgreSQL, each prepared once per connection, with rows as from Kysely', async () => {
    // One connection, so that the session the view reports is the one that ran the queries.
    const single = openDatabase(fresh.config.kind === 'postgres' ? { ...fresh.config, poolSize: 1 } : fresh.config);
    try {
      const siteName = precompiled<{ siteId: string }, { name: string }>((db, p) => db.selectFrom('sites').select('name').where('site_id', '=', p.siteId));
      await single.db
        .insertInto('sites')
        .values([site('prepared-a', 'A'), site('prepared-b', 'B')])
        .execute();
      for (let i = 0; i < 3; i++) {
        expect(await siteName({ db: single.db }, { siteId: 'prepared-a' })).toEqual([{ name: 'A' }]);
        expect(await siteName({ db: single.db }, { siteId: 'prepared-b' })).toEqual([{ name: 'B' }]);
      }
      // Other queries (Kysely's own, raw SQL) are not prepared.
      await single.db.selectFrom('sites').select('name').where('site_id', '=', 'prepared-a').execute();
      if (fresh.config.kind !== 'postgres') return;
      const { rows } = await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(single.db);
      expect(rows).toHaveLength(1);
      expect(rows[0]?.name).toMatch(/^ql_\d+$/);
      expect(rows[0]?.statement).toContain('"sites"');
    } finally {
      await single.close();
    }
  });

  it.runIf(configuration === 'scale-out')(
    'prepares a precompiled query anew once its statement is DATABASE_REPLAN_SECONDS old, deallocating the old one',
    async () => {
      if (fresh.config.kind !== 'postgres') return;
      const single = openDatabase({ ...fresh.config, poolSize: 1, replanMs: 200 });
      try {
        const siteName = precompiled<{ siteId: string }, { name: string }>((db, p) =>
          db.selectFrom('sites').select('site_id').select('name').where('site_id', '=', p.siteId),
        );
        await single.db.insertInto('sites').values(site('replanned', 'R')).execute();
        const prepared = async () =>
          (await sql<{ name: string }>`select name from pg_prepared_statements order by name`.execute(single.db)).rows.map((row) => row.name);
        expect(await siteName({ db: single.db }, { siteId: 'replanned' })).toEqual([{ site_id: 'replanned', name: 'R' }]);
        const [first] = await prepared();
        expect(first).toMatch(/^ql_\d+$/);
        expect(await siteName({ db: single.db }, { siteId: 'replanned' })).toEqual([{ site_id: 'replanned', name: 'R' }]);
        expect(await prepared()).toEqual([first]);
        await new Promise((resolve) => setTimeout(resolve, 250));
        expect(await siteName({ db: single.db }, { siteId: 'replanned' })).toEqual([{ site_id: 'replanned', name: 'R' }]);
        expect(await prepared()).toEqual([`${first}_1`]);
      } finally {
        await single.close();
      }
    },
  );

  it('answers a ping', async () => {
    await expect(database.ping()).resolves.toBeUndefined();
  });

  it('reads instants back as numbers', async () => {
    const createdAt = 1_767_225_600_123;
    await database.db
      .insertInto('sites')
      .values({ ...site('instant'), created_at: createdAt })
      .execute();
    const row = await database.db.selectFrom('sites').select('created_at').where('site_id', '=', 'instant').executeTakeFirstOrThrow();
    expect(row.created_at).toBe(createdAt);
  });

  it('commits a transaction', async () => {
    await database.db.transaction().execute(async (trx) => {
      await trx.insertInto('sites').values(site('committed')).execute();
    });
    const row = await database.db.selectFrom('sites').select('site_id').where('site_id', '=', 'committed').executeTakeFirst();
    expect(row).toEqual({ site_id: 'committed' });
  });

  it('rolls back a transaction that throws, across tables', async () => {
    const failure = database.db.transaction().execute(async (trx) => {
      await trx.insertInto('sites').values(site('rolled-back')).execute();
      await trx.insertInto('instance_settings').values({ site_id: 'rolled-back', name: 'probe', value: '1' }).execute();
      throw new Error('abort');
    });
    await expect(failure).rejects.toThrow('abort');
    expect(await database.db.selectFrom('sites').select('site_id').where('site_id', '=', 'rolled-back').executeTakeFirst()).toBeUndefined();
    expect(await database.db.selectFrom('instance_settings').select('name').where('site_id', '=', 'rolled-back').executeTakeFirst()).toBeUndefined();
  });

  it('rolls back a transaction whose statement fails, and stays usable', async () => {
    const failure = database.db.transaction().execute(async (trx) => {
      await trx.insertInto('sites').values(site('half')).execute();
      await trx.insertInto('sites').values(site('committed')).execute(); // duplicate primary key
    });
    await expect(failure).rejects.toThrow();
    expect(await database.db.selectFrom('sites').select('site_id').where('site_id', '=', 'half').executeTakeFirst()).toBeUndefined();
    await database.db.insertInto('sites').values(site('after-failure')).execute();
    expect(await database.db.selectFrom('sites').select('site_id').where('site_id', '=', 'after-failure').executeTakeFirst()).toBeDefined();
  });

  it('runs concurrent transactions without losing any', async () => {
    const ids = Array.from({ length: 10 }, (_, i) => `concurrent-${i}`);
    await Promise.all(
      ids.map((id) =>
        database.db.transaction().execute(async (trx) => {
          await trx.insertInto('sites').values(site(id)).execute();
          await trx
            .updateTable('sites')
            .set({ name: `done ${id}` })
            .where('site_id', '=', id)
            .execute();
        }),
      ),
    );
    const rows = await database.db.selectFrom('sites').select(['site_id', 'name']).where('site_id', 'like', 'concurrent-%').orderBy('site_id').execute();
    expect(rows).toEqual(ids.sort().map((id) => ({ site_id: id, name: `done ${id}` })));
  });

  it('reports affected rows of updates', async () => {
    const changed = await database.db.updateTable('sites').set({ name: 'renamed' }).where('site_id', '=', 'committed').executeTakeFirst();
    expect(Number(changed.numUpdatedRows)).toBe(1);
    const none = await database.db.updateTable('sites').set({ name: 'renamed' }).where('site_id', '=', 'no-such-site').executeTakeFirst();
    expect(Number(none.numUpdatedRows)).toBe(0);
  });

  it('never serves stale rows for a repeated query', async () => {
    await database.db.insertInto('sites').values(site('fresh', 'before')).execute();
    const read = () => database.db.selectFrom('sites').select('name').where('site_id', '=', 'fresh').executeTakeFirstOrThrow();
    expect(await read()).toEqual({ name: 'before' });
    await database.db.updateTable('sites').set({ name: 'after' }).where('site_id', '=', 'fresh').execute();
    expect(await read()).toEqual({ name: 'after' });
    await database.db.deleteFrom('sites').where('site_id', '=', 'fresh').execute();
    expect(await database.db.selectFrom('sites').select('name').where('site_id', '=', 'fresh').executeTakeFirst()).toBeUndefined();
  });

  it('runs 1,000 queries in a row, each read seeing the write before it', async () => {
    await database.db
      .insertInto('sites')
      .values(Array.from({ length: 10 }, (_, n) => site(`loop-${n}`, 'new')))
      .execute();
    for (let i = 0; i < 500; i += 1) {
      const id = `loop-${i % 10}`;
      await database.db
        .updateTable('sites')
        .set({ name: String(i) })
        .where('site_id', '=', id)
        .execute();
      const row = await database.db.selectFrom('sites').select('name').where('site_id', '=', id).executeTakeFirstOrThrow();
      expect(row.name).toBe(String(i));
    }
    const rows = await database.db.selectFrom('sites').select(['site_id', 'name']).where('site_id', 'like', 'loop-%').orderBy('site_id').execute();
    expect(rows).toEqual(Array.from({ length: 10 }, (_, n) => ({ site_id: `loop-${n}`, name: String(490 + n) })));
  });
});

describe('SQLite statement cache', () => {
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  beforeAll(async () => {
    fresh = await freshDatabase('embedded');
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
  afterAll(async () => fresh.drop());

  it('prepares a repeated query once', async () => {
    const db = fresh.database.db;
    const prepare = vi.spyOn(Sqlite.prototype, 'prepare');
    // A query text this file runs nowhere else, with different parameters each time.
    const query = (name: string) => db.selectFrom('sites').select(['site_id', 'timezone']).where('name', '=', name);
    for (const name of ['a', 'b', 'c']) await query(name).execute();
    const compiled = query('a').compile().sql;
    expect(prepare.mock.calls.filter(([text]) => text === compiled)).toHaveLength(1);
  });

  it('keeps answering correctly past the cache size', async () => {
    const db = fresh.database.db;
    for (let i = 0; i < 700; i += 1) {
      const { rows } = await sql<{ n: number }>`select ${sql.lit(i)} as n`.execute(db);
      expect(rows).toEqual([{ n: i }]);
    }
    await db.insertInto('sites').values(site('evicted', 'still here')).execute();
    expect(await db.selectFrom('sites').select('name').where('site_id', '=', 'evicted').executeTakeFirst()).toEqual({ name: 'still here' });
  });

  it('streams a select', async () => {
    const db = fresh.database.db;
    await db
      .insertInto('sites')
      .values([site('stream-a'), site('stream-b')])
      .execute();
    const seen: string[] = [];
    for await (const row of db.selectFrom('sites').select('site_id').where('site_id', 'like', 'stream-%').orderBy('site_id').stream()) {
      seen.push(row.site_id);
    }
    expect(seen).toEqual(['stream-a', 'stream-b']);
    // The connection is released after streaming.
    expect(await db.selectFrom('sites').select('site_id').where('site_id', '=', 'stream-a').executeTakeFirst()).toEqual({ site_id: 'stream-a' });
  });
});
