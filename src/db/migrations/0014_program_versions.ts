import { sql, type Kysely } from 'kysely';

// Program history (issue 26): every document a program change writes is kept as a version, with
// who made it (the admin client's id, `cli` for the questline command, null for Questline
// itself) and when, so that an admin can read what changed and restore an earlier program. The
// webhook secret is never part of a document, so no version holds it. A site's current program
// at the time of this migration becomes its first kept version (who made it is not known).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('program_versions')
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.site_id'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('document', 'text', (c) => c.notNull())
    .addColumn('changed_by', 'text')
    .addColumn('changed_at', 'bigint', (c) => c.notNull())
    // What the change did to each part of the program (JSON), against the version kept before it;
    // null for a site's first kept version.
    .addColumn('summary', 'text')
    // The version a restore of an earlier version brought back.
    .addColumn('restored_from', 'integer')
    .addPrimaryKeyConstraint('program_versions_pk', ['site_id', 'version'])
    .execute();
  await sql`insert into program_versions (site_id, version, document, changed_by, changed_at, summary, restored_from)
    select site_id, version, document, null, updated_at, null, null from site_programs`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('program_versions').execute();
}
