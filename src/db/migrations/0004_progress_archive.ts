import type { Kysely } from 'kysely';

// Progress on rules that a program change removed (SPEC §4): kept for audit, out of the engine's way.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mission_progress_archive')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('party_type', 'text', (c) => c.notNull())
    .addColumn('party_id', 'text', (c) => c.notNull())
    .addColumn('mission_id', 'text', (c) => c.notNull())
    .addColumn('rule_id', 'text', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('current', 'double precision', (c) => c.notNull())
    .addColumn('archived_at', 'bigint', (c) => c.notNull())
    .addColumn('program_version', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('mission_progress_archive_pk', ['site_id', 'party_type', 'party_id', 'mission_id', 'rule_id', 'archived_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('mission_progress_archive').execute();
}
