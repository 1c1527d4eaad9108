import type { Db } from '../../db/index.js';
import type { ClientsTable, SitesTable } from '../../db/schema.js';

export type SiteRow = SitesTable;
export type ClientRow = ClientsTable;

export class SitesRepository {
  constructor(private readonly db: Db) {}

  async insertSite(site: SiteRow): Promise<void> {
    await this.db.insertInto('sites').values(site).execute();
  }

  findSite(siteId: string): Promise<SiteRow | undefined> {
    return this.db.selectFrom('sites').selectAll().where('site_id', '=', siteId).executeTakeFirst();
  }

  listSites(): Promise<SiteRow[]> {
    return this.db.selectFrom('sites').selectAll().orderBy('site_id').execute();
  }

  async countSites(): Promise<number> {
    const row = await this.db
      .selectFrom('sites')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async insertClient(client: ClientRow): Promise<void> {
    await this.db.insertInto('clients').values(client).execute();
  }

  /** A live (not deleted) client by its globally unique id. */
  findClient(clientId: string): Promise<ClientRow | undefined> {
    return this.db.selectFrom('clients').selectAll().where('client_id', '=', clientId).where('deleted_at', 'is', null).executeTakeFirst();
  }

  listClients(siteId: string): Promise<ClientRow[]> {
    return this.db.selectFrom('clients').selectAll().where('site_id', '=', siteId).where('deleted_at', 'is', null).orderBy('created_at').execute();
  }

  /** Every client (deleted ones included) changed at or after `since`: the revocation feed. */
  listClientsChangedSince(since: number): Promise<ClientRow[]> {
    return this.db.selectFrom('clients').selectAll().where('updated_at', '>=', since).execute();
  }

  async replaceSecret(clientId: string, secretHash: string, now: number): Promise<ClientRow | undefined> {
    await this.db
      .updateTable('clients')
      .set((eb) => ({ secret_hash: secretHash, secret_version: eb('secret_version', '+', 1), updated_at: now }))
      .where('client_id', '=', clientId)
      .where('deleted_at', 'is', null)
      .execute();
    return this.findClient(clientId);
  }

  async setRate(clientId: string, rate: number | null, burst: number | null, now: number): Promise<ClientRow | undefined> {
    await this.db
      .updateTable('clients')
      .set({ rate_limit_rps: rate, rate_limit_burst: burst, updated_at: now })
      .where('client_id', '=', clientId)
      .where('deleted_at', 'is', null)
      .execute();
    return this.findClient(clientId);
  }

  async softDeleteClient(clientId: string, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('clients')
      .set({ deleted_at: now, updated_at: now })
      .where('client_id', '=', clientId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** A setting of the site (site `''`: of the instance), as stored. */
  async setting(siteId: string, name: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('instance_settings').select('value').where('site_id', '=', siteId).where('name', '=', name).executeTakeFirst();
    return row?.value;
  }

  /** The setting as stored, or `value` stored now if there was none: the first writer wins, and every node reads what it wrote. */
  async settingOnce(siteId: string, name: string, value: string): Promise<string> {
    await this.db
      .insertInto('instance_settings')
      .values({ site_id: siteId, name, value })
      .onConflict((oc) => oc.columns(['site_id', 'name']).doNothing())
      .execute();
    return (await this.setting(siteId, name)) as string;
  }

  async putSetting(siteId: string, name: string, value: string): Promise<void> {
    await this.db
      .insertInto('instance_settings')
      .values({ site_id: siteId, name, value })
      .onConflict((oc) => oc.columns(['site_id', 'name']).doUpdateSet({ value }))
      .execute();
  }
}
