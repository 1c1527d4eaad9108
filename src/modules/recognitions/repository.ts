// Reads and writes of recognitions: who may receive, budgets, gifts and their recipients.
import { sql, type Kysely } from 'kysely';
import type { Trx } from '../../db/index.js';
import type { DatabaseSchema, RecognitionRecipientsTable, RecognitionsTable } from '../../db/schema.js';

type Db = Kysely<DatabaseSchema>;
type Reader = Pick<Trx, 'db'>;

export interface RecipientRow {
  user_id: string;
  preferences: string | null;
}

export interface RecipientQuery {
  siteId: string;
  /** The exchange's recipient groups; empty: every known user of the site. */
  groups: readonly string[];
  giverId: string;
  /** Lowercased; matches a name anywhere, or the start of a user id. */
  q?: string | undefined;
  limit: number;
  offset: number;
}

export type InteractionType = 'given' | 'received' | 'all';

/** LIKE's wildcards and its escape character, escaped. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export class RecognitionRepository {
  constructor(private readonly db: Db) {}

  /**
   * The users of the site a recipient may be: members of the given groups, or (no groups) every
   * user the site knows, from an action, a profile or a group membership.
   */
  private candidates(siteId: string, groups: readonly string[]) {
    if (groups.length > 0) {
      return this.db.selectFrom('group_members').select('user_id').where('site_id', '=', siteId).where('group_id', 'in', [...groups]).distinct();
    }
    return this.db
      .selectFrom('parties')
      .select('party_id as user_id')
      .where('site_id', '=', siteId)
      .where('party_type', '=', 'user')
      .union(this.db.selectFrom('user_profiles').select('user_id').where('site_id', '=', siteId))
      .union(this.db.selectFrom('group_members').select('user_id').where('site_id', '=', siteId));
  }

  /** Which of the given users may receive (see candidates()). */
  async eligibleAmong(siteId: string, groups: readonly string[], userIds: readonly string[]): Promise<Set<string>> {
    if (userIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom(this.candidates(siteId, groups).as('u'))
      .select('u.user_id')
      .where('u.user_id', 'in', [...userIds])
      .execute();
    return new Set(rows.map((row) => row.user_id));
  }

  /** Eligible recipients, the giver excluded, by name then id; and how many there are. */
  async recipients(query: RecipientQuery): Promise<{ rows: RecipientRow[]; total: number }> {
    const { siteId } = query;
    let base = this.db
      .selectFrom(this.candidates(siteId, query.groups).as('u'))
      .leftJoin('user_profiles as p', (join) => join.onRef('p.user_id', '=', 'u.user_id').on('p.site_id', '=', siteId))
      .where('u.user_id', '<>', query.giverId);
    if (query.q !== undefined && query.q !== '') {
      const q = likeLiteral(query.q);
      base = base.where((eb) =>
        eb.or([eb(sql`p.search_name`, 'like', sql`${`%${q}%`} escape '\\'`), eb(sql`lower(u.user_id)`, 'like', sql`${`${q}%`} escape '\\'`)]),
      );
    }
    const [rows, count] = await Promise.all([
      base
        .select(['u.user_id', 'p.preferences'])
        .orderBy(sql`case when p.search_name is null then 1 else 0 end`)
        .orderBy('p.search_name')
        .orderBy('u.user_id')
        .limit(query.limit)
        .offset(query.offset)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    ]);
    return { rows, total: Number(count?.n ?? 0) };
  }

  async budgetUsed(trx: Reader, siteId: string, exchangeId: string, giverId: string, windowStart: number): Promise<number> {
    const row = await trx.db
      .selectFrom('recognition_budgets')
      .select('used')
      .where('site_id', '=', siteId)
      .where('exchange_id', '=', exchangeId)
      .where('giver_id', '=', giverId)
      .where('window_start', '=', windowStart)
      .executeTakeFirst();
    return Number(row?.used ?? 0);
  }

  async charge(trx: Trx, siteId: string, exchangeId: string, giverId: string, windowStart: number, amount: number): Promise<void> {
    await trx.db
      .insertInto('recognition_budgets')
      .values({ site_id: siteId, exchange_id: exchangeId, giver_id: giverId, window_start: windowStart, used: amount })
      .onConflict((oc) => oc.columns(['site_id', 'exchange_id', 'giver_id', 'window_start']).doUpdateSet({ used: sql<number>`recognition_budgets.used + ${amount}` }))
      .execute();
  }

  async insert(trx: Trx, recognition: RecognitionsTable, recipients: RecognitionRecipientsTable[]): Promise<void> {
    await trx.db.insertInto('recognitions').values(recognition).execute();
    await trx.db.insertInto('recognition_recipients').values(recipients).execute();
  }

  /** A user's recognitions, newest first: given, received, or both; and how many there are. */
  async interactions(siteId: string, userId: string, type: InteractionType, limit: number, offset: number): Promise<{ rows: RecognitionsTable[]; total: number }> {
    let base = this.db.selectFrom('recognitions as r').where('r.site_id', '=', siteId);
    const received = this.db.selectFrom('recognition_recipients').select('recognition_id').where('site_id', '=', siteId).where('recipient_id', '=', userId);
    if (type === 'given') base = base.where('r.giver_id', '=', userId);
    else if (type === 'received') base = base.where('r.recognition_id', 'in', received);
    else base = base.where((eb) => eb.or([eb('r.giver_id', '=', userId), eb('r.recognition_id', 'in', received)]));
    const [rows, count] = await Promise.all([
      base.selectAll('r').orderBy('r.given_at', 'desc').orderBy('r.recognition_id', 'desc').limit(limit).offset(offset).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    ]);
    return { rows, total: Number(count?.n ?? 0) };
  }

  async recipientsOf(siteId: string, recognitionIds: readonly string[]): Promise<RecognitionRecipientsTable[]> {
    if (recognitionIds.length === 0) return [];
    return this.db
      .selectFrom('recognition_recipients')
      .selectAll()
      .where('site_id', '=', siteId)
      .where('recognition_id', 'in', [...recognitionIds])
      .orderBy('recognition_id')
      .orderBy('recipient_id')
      .execute();
  }
}
