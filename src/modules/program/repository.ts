import { sql, type ExpressionBuilder } from 'kysely';
import type { Db, DialectName } from '../../db/index.js';
import type { DatabaseSchema, ProgramVersionsTable, SiteProgramsTable } from '../../db/schema.js';
import type { Subscription } from './event-routing.js';

export type ProgramRow = SiteProgramsTable;
export type ProgramVersionRow = ProgramVersionsTable;

/** Rules removed from missions: the progress a change would archive. */
export type RemovedRules = Array<{ missionId: string; ruleId: string }>;

/** Pairs per statement when counting progress on removed rules: SQLite and PostgreSQL bound the parameters of one. */
const PAIRS_PER_STATEMENT = 2_000;

export class ProgramRepository {
  constructor(
    private readonly db: Db,
    private readonly dialect: DialectName,
  ) {}

  find(siteId: string, db: Db = this.db): Promise<ProgramRow | undefined> {
    return db.selectFrom('site_programs').selectAll().where('site_id', '=', siteId).executeTakeFirst();
  }

  /** The site's name and time zone (a site without a program row yet starts from them), and when it was created. */
  siteIdentity(siteId: string, db: Db = this.db): Promise<{ name: string; timezone: string; created_at: number } | undefined> {
    return db.selectFrom('sites').select(['name', 'timezone', 'created_at']).where('site_id', '=', siteId).executeTakeFirst();
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

  /** Creates the row (version 0) unless it exists, so that there is always a row to lock; says whether it did. */
  async ensure(trx: Db, row: ProgramRow): Promise<boolean> {
    const result = await trx
      .insertInto('site_programs')
      .values(row)
      .onConflict((oc) => oc.column('site_id').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** Keeps a version of the program in its history, in the caller's transaction (the program row locked). */
  async keepVersion(trx: Db, row: ProgramVersionRow): Promise<void> {
    await trx.insertInto('program_versions').values(row).execute();
  }

  /** A page of the site's kept versions, newest first, without their documents; and how many there are. */
  async versions(siteId: string, limit: number, offset: number): Promise<{ total: number; rows: Array<Omit<ProgramVersionRow, 'document'>> }> {
    const [count, rows] = await Promise.all([
      this.db
        .selectFrom('program_versions')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('site_id', '=', siteId)
        .executeTakeFirstOrThrow(),
      this.db
        .selectFrom('program_versions')
        .select(['site_id', 'version', 'changed_by', 'changed_at', 'summary', 'restored_from'])
        .where('site_id', '=', siteId)
        .orderBy('version', 'desc')
        .limit(limit)
        .offset(offset)
        .execute(),
    ]);
    return { total: Number(count.n), rows };
  }

  /** One kept version, its document included. */
  keptVersion(siteId: string, version: number): Promise<ProgramVersionRow | undefined> {
    return this.db.selectFrom('program_versions').selectAll().where('site_id', '=', siteId).where('version', '=', version).executeTakeFirst();
  }

  /** The version kept last before `version` (endpoint changes raise the version without keeping one), its document included. */
  keptBefore(siteId: string, version: number): Promise<ProgramVersionRow | undefined> {
    return this.db
      .selectFrom('program_versions')
      .selectAll()
      .where('site_id', '=', siteId)
      .where('version', '<', version)
      .orderBy('version', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  async save(trx: Db, row: ProgramRow): Promise<void> {
    await trx
      .updateTable('site_programs')
      .set({
        version: row.version,
        document: row.document,
        webhook_secret: row.webhook_secret,
        previous_webhook_secret: row.previous_webhook_secret,
        previous_webhook_secret_until: row.previous_webhook_secret_until,
        updated_at: row.updated_at,
      })
      .where('site_id', '=', row.site_id)
      .execute();
  }

  /** Sets the webhook secret columns given, in the caller's transaction (the row locked). */
  async saveSecrets(
    trx: Db,
    siteId: string,
    columns: Partial<Pick<ProgramRow, 'webhook_secret' | 'previous_webhook_secret' | 'previous_webhook_secret_until'>>,
  ): Promise<void> {
    await trx.updateTable('site_programs').set(columns).where('site_id', '=', siteId).execute();
  }

  /** Raises the version alone: what the snapshot is built from changed outside the document (ProgramService.changeEndpoints). */
  async saveVersion(trx: Db, siteId: string, version: number): Promise<void> {
    await trx.updateTable('site_programs').set({ version }).where('site_id', '=', siteId).execute();
  }

  /** Every origin some site's program allows (site.allowedOrigins), as written, each once. */
  async allowedOrigins(): Promise<string[]> {
    const query =
      this.dialect === 'postgres'
        ? sql<{ origin: string }>`select distinct jsonb_array_elements_text((document::jsonb)->'site'->'allowedOrigins') as origin from site_programs`
        : sql<{ origin: string }>`select distinct j.value as origin from site_programs, json_each(site_programs.document, '$.site.allowedOrigins') as j`;
    return (await query.execute(this.db)).rows.map((row) => row.origin);
  }

  /** The event types of each of the site's webhook endpoints: the snapshot carries which types have a subscriber. */
  async endpointEventTypes(siteId: string, db: Db = this.db): Promise<Array<{ eventTypes: string[] }>> {
    const rows = await db.selectFrom('webhook_endpoints').select('event_types').where('site_id', '=', siteId).execute();
    return rows.map((row) => ({ eventTypes: JSON.parse(row.event_types) as string[] }));
  }

  /** The site's webhook endpoints as the routing rule reads them (event-routing.ts): id, URL and the types each subscribes to. */
  async subscriptions(siteId: string): Promise<Subscription[]> {
    const rows = await this.db
      .selectFrom('webhook_endpoints')
      .select(['endpoint_id', 'url', 'event_types'])
      .where('site_id', '=', siteId)
      .orderBy('created_at')
      .orderBy('endpoint_id')
      .execute();
    return rows.map((row) => ({ endpointId: row.endpoint_id, url: row.url, eventTypes: JSON.parse(row.event_types) as string[] }));
  }

  async updateSiteIdentity(trx: Db, siteId: string, name: string, timezone: string): Promise<void> {
    await trx.updateTable('sites').set({ name, timezone }).where('site_id', '=', siteId).execute();
  }

  /**
   * What archiveProgress would archive, without archiving: per mission, and in all, how many parties
   * have progress (a row not at zero) on the removed rules and how many rows.
   */
  async countProgress(
    siteId: string,
    removed: RemovedRules,
  ): Promise<{ parties: number; rows: number; missions: Map<string, { parties: number; rows: number }> }> {
    const missions = new Map<string, { parties: number; rows: number }>();
    const parties = new Set<string>();
    let rows = 0;
    for (const chunk of missionChunks(removed)) {
      const matches = (eb: ExpressionBuilder<DatabaseSchema, 'mission_progress'>) =>
        eb.and([
          eb('site_id', '=', siteId),
          eb('current', '!=', 0),
          eb.or([...chunk].map(([missionId, ruleIds]) => eb.and([eb('mission_id', '=', missionId), eb('rule_id', 'in', ruleIds)]))),
        ]);
      const perMission = await this.db
        .selectFrom('mission_progress')
        .select(['mission_id', sql<number | string>`count(*)`.as('n'), sql<number | string>`count(distinct party_type || ':' || party_id)`.as('parties')])
        .where(matches)
        .groupBy('mission_id')
        .execute();
      for (const row of perMission) {
        missions.set(row.mission_id, { parties: Number(row.parties), rows: Number(row.n) });
        rows += Number(row.n);
      }
      const affected = await this.db.selectFrom('mission_progress').select(['party_type', 'party_id']).distinct().where(matches).execute();
      for (const party of affected) parties.add(`${party.party_type}:${party.party_id}`);
    }
    return { parties: parties.size, rows, missions };
  }

  /** Moves progress on removed rules to the archive; says how many parties and rows it touched. */
  async archiveProgress(trx: Db, siteId: string, removed: RemovedRules, version: number, now: number): Promise<{ parties: number; rows: number }> {
    const parties = new Set<string>();
    let rows = 0;
    for (const { missionId, ruleId } of removed) {
      const progress = await trx
        .selectFrom('mission_progress')
        .select(['party_type', 'party_id', 'window_start', 'current'])
        .where('site_id', '=', siteId)
        .where('mission_id', '=', missionId)
        .where('rule_id', '=', ruleId)
        .where('current', '!=', 0)
        .execute();
      // Rows at zero carry no progress: they are dropped, not archived, and affect nobody.
      await trx.deleteFrom('mission_progress').where('site_id', '=', siteId).where('mission_id', '=', missionId).where('rule_id', '=', ruleId).execute();
      if (progress.length === 0) continue;
      // In chunks: SQLite bounds the parameters of one statement.
      for (let i = 0; i < progress.length; i += 500) {
        await trx
          .insertInto('mission_progress_archive')
          .values(
            progress.slice(i, i + 500).map((p) => ({
              site_id: siteId,
              party_type: p.party_type,
              party_id: p.party_id,
              mission_id: missionId,
              rule_id: ruleId,
              window_start: p.window_start,
              current: p.current,
              archived_at: now,
              program_version: version,
            })),
          )
          .execute();
      }
      for (const p of progress) parties.add(`${p.party_type}:${p.party_id}`);
      rows += progress.length;
    }
    return { parties: parties.size, rows };
  }
}

/** The removed rules' ids by mission, in the order given. */
export function rulesByMission(removed: RemovedRules): Map<string, string[]> {
  const byMission = new Map<string, string[]>();
  for (const { missionId, ruleId } of removed) {
    const ruleIds = byMission.get(missionId);
    if (ruleIds === undefined) byMission.set(missionId, [ruleId]);
    else ruleIds.push(ruleId);
  }
  return byMission;
}

/** The removed rules by mission, in chunks of whole missions of about PAIRS_PER_STATEMENT rules. */
function missionChunks(removed: RemovedRules): Array<Map<string, string[]>> {
  const chunks: Array<Map<string, string[]>> = [];
  let chunk = new Map<string, string[]>();
  let pairs = 0;
  for (const [missionId, ruleIds] of rulesByMission(removed)) {
    if (pairs >= PAIRS_PER_STATEMENT) {
      chunks.push(chunk);
      chunk = new Map();
      pairs = 0;
    }
    chunk.set(missionId, ruleIds);
    pairs += ruleIds.length;
  }
  if (chunk.size > 0) chunks.push(chunk);
  return chunks;
}
