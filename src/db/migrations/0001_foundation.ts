import type { Kysely } from 'kysely';

// Instants are bigint milliseconds on both dialects (SQLite stores any integer in "bigint").
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sites')
    .addColumn('site_id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('timezone', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('clients')
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.site_id'))
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('secret_version', 'integer', (c) => c.notNull())
    .addColumn('rate_limit_rps', 'real')
    .addColumn('rate_limit_burst', 'integer')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('deleted_at', 'bigint')
    .addPrimaryKeyConstraint('clients_pk', ['site_id', 'client_id'])
    .execute();
  // Token requests name only the client id, so it is unique across sites as well.
  await db.schema.createIndex('clients_client_id').unique().on('clients').column('client_id').execute();
  // Revocation refresh reads clients changed since the last look.
  await db.schema.createIndex('clients_updated_at').on('clients').column('updated_at').execute();

  await db.schema
    .createTable('instance_settings')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('instance_settings_pk', ['site_id', 'name'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('instance_settings').execute();
  await db.schema.dropTable('clients').execute();
  await db.schema.dropTable('sites').execute();
}
