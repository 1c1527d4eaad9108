import type { Db, DialectName } from '../../db/index.js';
import type { SiteProgramsTable } from '../../db/schema.js';

export type ProgramRow = SiteProgramsTable;

export class ProgramRepository {
  constructor(private readonly db: Db, private readonly dialect: DialectName) {}

  find(siteId: string, db: Db = this.db): Promise<ProgramRow | undefined> {
    return db.selectFrom('site_programs').selectAll().where('site_id', '=', siteId).executeTakeFirst();
  }

  async version(siteId: string): Promise<number> {
    const row = await this.db.selectFrom('site_programs').select('version').where('site_id', '=', siteId).executeTakeFirst();
    return row?.version ?? 0;
  }

  /**
   * The row, locked until the transaction `trx` ends (PostgreSQL: FOR UPDATE; SQLite transactions
   * already hold the write lock from BEGIN IMMEDIATE).
   */
  async lock(trx: Db, siteId: string): Promise<ProgramRow | undefined> {
    let query = trx.selectFrom('site_programs').selectAll().where('site_id', '=', siteId);
    if (this.dialect === 'postgres') query = query.forUpdate();
    return query.executeTakeFirst();
  }

  /** Creates the row (version 0) unless it exists, so that there is always a row to lock. */
  async ensure(trx: Db, row: ProgramRow): Promise<void> {
    await trx.insertInto('site_programs').values(row).onConflict((oc) => oc.column('site_id').doNothing()).execute();
  }

  async save(trx: Db, row: ProgramRow): Promise<void> {
    await trx
      .updateTable('site_programs')
      .set({ version: row.version, document: row.document, webhook_secret: row.webhook_secret, updated_at: row.updated_at })
      .where('site_id', '=', row.site_id)
      .execute();
  }

  async updateSiteIdentity(trx: Db, siteId: string, name: string, timezone: string): Promise<void> {
    await trx.updateTable('sites').set({ name, timezone }).where('site_id', '=', siteId).execute();
  }
}
