import type { Kysely } from 'kysely';

// Award accounts (SPEC §11). One account per user: the admin-managed access (country, verified)
// and the balance, kept beside an append-only ledger whose rows carry the balance after them, so
// that the statement and the balance cannot disagree unnoticed (`questline verify` checks both).
// An entry is available from `available_at` (credits from points may wait `holdDays`); until
// then it is pending. On-the-spot codes are stored by their SHA-256 only: a code is shown once,
// when its batch is issued, and redeemed at most once (a conditional update claims it).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('award_accounts')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('country_code', 'text')
    .addColumn('verified', 'integer', (c) => c.notNull())
    .addColumn('balance', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('award_accounts_pk', ['site_id', 'user_id'])
    .execute();

  await db.schema
    .createTable('award_ledger')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('entry_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    // mission | adjustment | recognition | reversal (mirrors of the award point category), ots,
    // purchase | gift (admin debits), refund (a debit given back).
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    // The point category an entry mirrored from points moved (null for the others): a reversal
    // takes back the credit of its own category, whatever the settings say by then.
    .addColumn('category', 'text')
    .addColumn('balance_after', 'bigint', (c) => c.notNull())
    // What it refers to: the completion, recognition or adjustment behind points; the code; the
    // marketplace's order or gift reference; the debit a refund gives back.
    .addColumn('reference', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('available_at', 'bigint', (c) => c.notNull())
    .addColumn('posted_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('award_ledger_pk', ['site_id', 'entry_id'])
    .execute();
  await db.schema.createIndex('award_ledger_statement').on('award_ledger').columns(['site_id', 'user_id', 'posted_at']).execute();
  await db.schema.createIndex('award_ledger_reference').on('award_ledger').columns(['site_id', 'user_id', 'reference']).execute();
  await db.schema.createIndex('award_ledger_pending').on('award_ledger').columns(['site_id', 'user_id', 'available_at']).execute();

  await db.schema
    .createTable('ots_codes')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('code_id', 'text', (c) => c.notNull())
    .addColumn('batch_id', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('redeemed_by', 'text')
    .addColumn('redeemed_at', 'bigint')
    .addPrimaryKeyConstraint('ots_codes_pk', ['site_id', 'code_hash'])
    .execute();
  await db.schema.createIndex('ots_codes_batch').on('ots_codes').columns(['site_id', 'batch_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('ots_codes').execute();
  await db.schema.dropTable('award_ledger').execute();
  await db.schema.dropTable('award_accounts').execute();
}
