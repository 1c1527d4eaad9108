// Everything a change of a site's program writes (its row, the site's name and time zone, the kept
// versions, progress and its archive, the cached snapshot's version), read straight from the store:
// what the preview tests compare before and after, to show that a preview wrote nothing.
import type { TestApp } from './app.js';

export async function programWrites(t: TestApp, siteId: string) {
  const db = t.database.db;
  return {
    program: await db.selectFrom('site_programs').selectAll().where('site_id', '=', siteId).executeTakeFirst(),
    site: await db.selectFrom('sites').selectAll().where('site_id', '=', siteId).executeTakeFirst(),
    versions: await db.selectFrom('program_versions').selectAll().where('site_id', '=', siteId).orderBy('version').execute(),
    progress: await db
      .selectFrom('mission_progress')
      .selectAll()
      .where('site_id', '=', siteId)
      .orderBy('party_id')
      .orderBy('mission_id')
      .orderBy('rule_id')
      .execute(),
    archive: await db.selectFrom('mission_progress_archive').selectAll().where('site_id', '=', siteId).execute(),
    backups: await db.selectFrom('backups').select('backup_id').where('site_id', '=', siteId).execute(),
    snapshot: (await t.app.services.programs.snapshot(siteId)).version,
  };
}
