// Reads and writes of recognitions: budgets, gifts and their recipients.
import { sql, type Kysely } from 'kysely';
import type { Trx } from '../../db/index.js';
import type { DatabaseSchema, RecognitionRecipientsTable, RecognitionsTable } from '../../db/schema.js';

type Db = Kysely<DatabaseSchema>;
type Reader = Pick<Trx, 'db'>;

export type InteractionType = 'given' | 'received' | 'all';

export class RecognitionRepository {
  constructor(private readonly db: Db) {}

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
      .onConflict((oc) =>
        oc.columns(['site_id', 'exchange_id', 'giver_id', 'window_start']).doUpdateSet({ used: sql<number>`recognition_budgets.used + ${amount}` }),
      )
      .execute();
  }

  async insert(trx: Trx, recognition: RecognitionsTable, recipients: RecognitionRecipientsTable[]): Promise<void> {
    await trx.db.insertInto('recognitions').values(recognition).execute();
    await trx.db.insertInto('recognition_recipients').values(recipients).execute();
  }

  /** A user's recognitions, newest first: given, received, or both; and how many there are. */
  async interactions(
    siteId: string,
    userId: string,
    type: InteractionType,
    limit: number,
    offset: number,
  ): Promise<{ rows: RecognitionsTable[]; total: number }> {
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
