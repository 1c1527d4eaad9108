// Reads and writes of a site's stored backups (SPEC §13).
import type { Db } from '../../db/index.js';
import type { BackupsTable } from '../../db/schema.js';

export class BackupRepository {
  constructor(private readonly db: Db) {}

  async insert(backup: BackupsTable): Promise<void> {
    await this.db.insertInto('backups').values(backup).execute();
  }

  /** A page of the site's backups, newest first, and how many there are. */
  async list(siteId: string, limit: number, offset: number): Promise<{ total: number; rows: Array<Pick<BackupsTable, 'backup_id' | 'name' | 'created_at'>> }> {
    const where = this.db.selectFrom('backups').where('site_id', '=', siteId);
    const [count, rows] = await Promise.all([
      where.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      where.select(['backup_id', 'name', 'created_at']).orderBy('backup_id', 'desc').limit(limit).offset(offset).execute(),
    ]);
    return { total: Number(count.n), rows };
  }

  /** The backup's document, or undefined when the site has no such backup. */
  async xml(siteId: string, backupId: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('backups').select('xml').where('site_id', '=', siteId).where('backup_id', '=', backupId).executeTakeFirst();
    return row?.xml;
  }
}
