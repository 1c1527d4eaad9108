// Migration 0013 (award accounts): the account, ledger and on-the-spot code tables. Migrating down
// drops them (and their indexes, or up again would fail on PostgreSQL), up again rebuilds them
// empty; the primary keys hold one account per user, one entry per id and one row per code hash.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/index.js';
import type { AwardAccountsTable, AwardLedgerTable, OtsCodesTable } from '../../src/db/schema.js';
import { configurations, freshDatabase } from '../helpers/app.js';
import { migratorOf, tableExists as tableExistsIn } from '../helpers/migrations.js';

const TABLES = ['award_accounts', 'award_ledger', 'ots_codes'] as const;
type Table = (typeof TABLES)[number];

describe.each(configurations)('migration 0013_awards (%s)', (configuration) => {
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  let database: Database;
  beforeAll(async () => {
    fresh = await freshDatabase(configuration);
    database = fresh.database;
  });
  afterAll(async () => fresh.drop());

  const migrator = () => migratorOf(fresh);
  const tableExists = (table: string) => tableExistsIn(database.db, table);
  const account = (overrides: Partial<AwardAccountsTable> = {}): AwardAccountsTable => ({
    site_id: 's1',
    user_id: 'ann',
    country_code: 'US',
    verified: 1,
    balance: 1_500,
    updated_at: 1_000,
    ...overrides,
  });
  const entry = (overrides: Partial<AwardLedgerTable> = {}): AwardLedgerTable => ({
    site_id: 's1',
    entry_id: 'ae_1',
    user_id: 'ann',
    kind: 'ots',
    amount: 1_500,
    category: null,
    balance_after: 1_500,
    reference: 'otc_1',
    description: null,
    available_at: 1_000,
    posted_at: 1_000,
    ...overrides,
  });
  const code = (overrides: Partial<OtsCodesTable> = {}): OtsCodesTable => ({
    site_id: 's1',
    code_hash: 'a'.repeat(64),
    code_id: 'otc_1',
    batch_id: 'otsb_1',
    amount: 1_500,
    expires_at: 9_000_000_000_000,
    created_at: 1_000,
    redeemed_by: null,
    redeemed_at: null,
    ...overrides,
  });
  const count = async (table: Table) =>
    Number(
      (
        await database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const fill = async () => {
    await database.db.insertInto('award_accounts').values(account()).execute();
    await database.db.insertInto('award_ledger').values(entry()).execute();
    await database.db
      .insertInto('ots_codes')
      .values(code({ redeemed_by: 'ann', redeemed_at: 1_000 }))
      .execute();
  };

  it('runs after 0012_quizzes on a fresh migrate, and its tables exist', async () => {
    const names = (await migrator().getMigrations()).filter((m) => m.executedAt !== undefined).map((m) => m.name);
    expect(names).toContain('0013_awards');
    expect(names.indexOf('0013_awards')).toBe(names.indexOf('0012_quizzes') + 1);
    for (const table of TABLES) expect(await tableExists(table), table).toBe(true);
    for (const table of TABLES) expect(await count(table), table).toBe(0);
  });

  it('goes down to 0012_quizzes, dropping the award tables, and up again', async () => {
    await fill();
    const down = await migrator().migrateTo('0012_quizzes');
    expect(down.error).toBeUndefined();
    expect(down.results?.map((r) => `${r.direction} ${r.migrationName}`).at(-1)).toEqual('Down 0013_awards');
    expect(down.results?.every((r) => r.status === 'Success')).toBe(true);
    for (const table of TABLES) expect(await tableExists(table), table).toBe(false);
    // The earlier migrations' tables stay.
    for (const table of ['quiz_attempts', 'quiz_responses', 'recognitions', 'points_ledger', 'instance_settings'])
      expect(await tableExists(table), table).toBe(true);
    const executed = (await migrator().getMigrations()).filter((m) => m.executedAt !== undefined).map((m) => m.name);
    expect(executed).not.toContain('0013_awards');
    expect(executed.at(-1)).toBe('0012_quizzes');

    // Up again: 0013 first (indexes of the same names are created again without a clash).
    const applied = await database.migrate();
    expect(applied[0]).toEqual('0013_awards');
    for (const table of TABLES) expect(await tableExists(table), table).toBe(true);
    // Rebuilt empty.
    for (const table of TABLES) expect(await count(table), table).toBe(0);
    // Nothing left to run.
    expect(await database.migrate()).toEqual([]);
  });

  it('goes down and up a second time', async () => {
    await fill();
    expect((await migrator().migrateTo('0012_quizzes')).error).toBeUndefined();
    for (const table of TABLES) expect(await tableExists(table), table).toBe(false);
    expect((await database.migrate())[0]).toEqual('0013_awards');
    for (const table of TABLES) expect(await count(table), table).toBe(0);
  });

  it('stores every column of an account, an entry and a code as written', async () => {
    await fill();
    await database.db
      .insertInto('award_ledger')
      .values(entry({ entry_id: 'ae_2', kind: 'purchase', amount: -500, balance_after: 1_000, reference: 'order-1', description: 'Mug' }))
      .execute();

    const stored = await database.db.selectFrom('award_accounts').selectAll().executeTakeFirstOrThrow();
    expect({ ...stored, verified: Number(stored.verified), balance: Number(stored.balance), updated_at: Number(stored.updated_at) }).toEqual(account());
    const entries = await database.db.selectFrom('award_ledger').selectAll().orderBy('entry_id').execute();
    expect(
      entries.map((r) => ({
        ...r,
        amount: Number(r.amount),
        balance_after: Number(r.balance_after),
        available_at: Number(r.available_at),
        posted_at: Number(r.posted_at),
      })),
    ).toEqual([entry(), entry({ entry_id: 'ae_2', kind: 'purchase', amount: -500, balance_after: 1_000, reference: 'order-1', description: 'Mug' })]);
    const codes = await database.db.selectFrom('ots_codes').selectAll().execute();
    expect(
      codes.map((r) => ({
        ...r,
        amount: Number(r.amount),
        expires_at: Number(r.expires_at),
        created_at: Number(r.created_at),
        redeemed_at: r.redeemed_at === null ? null : Number(r.redeemed_at),
      })),
    ).toEqual([code({ redeemed_by: 'ann', redeemed_at: 1_000 })]);
    // Millisecond instants beyond 32 bits survive (bigint columns).
    await database.db.updateTable('ots_codes').set({ expires_at: 4_102_444_800_000 }).execute();
    expect(Number((await database.db.selectFrom('ots_codes').select('expires_at').executeTakeFirstOrThrow()).expires_at)).toBe(4_102_444_800_000);
  });

  it('refuses a second row with the same primary key, but not when another part of the key differs', async () => {
    await expect(
      database.db
        .insertInto('award_accounts')
        .values(account({ balance: 0 }))
        .execute(),
    ).rejects.toThrow(/unique|duplicate key|primary/i);
    await expect(
      database.db
        .insertInto('award_ledger')
        .values(entry({ user_id: 'bob' }))
        .execute(),
    ).rejects.toThrow(/unique|duplicate key|primary/i);
    await expect(
      database.db
        .insertInto('ots_codes')
        .values(code({ code_id: 'otc_2', batch_id: 'otsb_2' }))
        .execute(),
    ).rejects.toThrow(/unique|duplicate key|primary/i);
    expect(await count('award_accounts')).toBe(1);
    expect(await count('ots_codes')).toBe(1);

    await database.db
      .insertInto('award_accounts')
      .values([account({ user_id: 'bob' }), account({ site_id: 's2' })])
      .execute();
    await database.db
      .insertInto('award_ledger')
      .values(entry({ site_id: 's2' }))
      .execute();
    await database.db
      .insertInto('ots_codes')
      .values([code({ site_id: 's2' }), code({ code_hash: 'b'.repeat(64) })])
      .execute();
    expect(await count('award_accounts')).toBe(3);
    expect(await count('ots_codes')).toBe(3);
  });

  it('refuses nulls in the required columns and allows them in the optional ones', async () => {
    await expect(
      sql`insert into award_accounts (site_id, user_id, country_code, verified, balance, updated_at) values ('s3', 'ann', null, null, 0, 0)`.execute(
        database.db,
      ),
    ).rejects.toThrow();
    await expect(
      sql`insert into award_ledger (site_id, entry_id, user_id, kind, amount, balance_after, reference, description, available_at, posted_at) values ('s3', 'ae_9', 'ann', 'ots', 1, 1, null, null, 0, 0)`.execute(
        database.db,
      ),
    ).rejects.toThrow();
    await expect(
      sql`insert into ots_codes (site_id, code_hash, code_id, batch_id, amount, expires_at, created_at) values ('s3', 'c', 'otc_9', 'otsb_9', 1, null, 0)`.execute(
        database.db,
      ),
    ).rejects.toThrow();
    await sql`insert into award_accounts (site_id, user_id, country_code, verified, balance, updated_at) values ('s3', 'ann', null, 0, 0, 0)`.execute(
      database.db,
    );
    await sql`insert into ots_codes (site_id, code_hash, code_id, batch_id, amount, expires_at, created_at) values ('s3', 'c', 'otc_9', 'otsb_9', 1, 0, 0)`.execute(
      database.db,
    );
    const stored = await database.db.selectFrom('ots_codes').select(['redeemed_by', 'redeemed_at']).where('site_id', '=', 's3').executeTakeFirstOrThrow();
    expect(stored).toEqual({ redeemed_by: null, redeemed_at: null });
  });
});
