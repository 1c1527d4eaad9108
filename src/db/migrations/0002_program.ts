import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The whole program of a site, canonical JSON (docs/program.md explains why one document).
  await db.schema
    .createTable('site_programs')
    .addColumn('site_id', 'text', (c) => c.primaryKey().references('sites.site_id'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('document', 'text', (c) => c.notNull())
    // Write-only: never part of the document, backups or reads.
    .addColumn('webhook_secret', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('backups')
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.site_id'))
    .addColumn('backup_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('xml', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('backups_pk', ['site_id', 'backup_id'])
    .execute();

  // Memberships are user data, not program: they survive program replacement and restores.
  await db.schema
    .createTable('group_members')
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.site_id'))
    .addColumn('group_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('joined_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('group_members_pk', ['site_id', 'group_id', 'user_id'])
    .execute();
  await db.schema.createIndex('group_members_user').on('group_members').columns(['site_id', 'user_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('group_members').execute();
  await db.schema.dropTable('backups').execute();
  await db.schema.dropTable('site_programs').execute();
}
