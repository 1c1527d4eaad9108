// The streaks' SQL (docs/streaks.md): the site-local days each user counted per streak, the
// milestones paid per run, and the freezes and breaks the sweep announced.
import { sql } from 'kysely';
import type { Trx } from '../../db/index.js';
import type { StreakMilestonesTable, StreakNoticesTable } from '../../db/schema.js';

export class StreaksRepository {
  /** The days (ascending) the user counted for each of the streaks, by streak. */
  async days(trx: Trx, siteId: string, userId: string, streakIds: readonly string[]): Promise<Map<string, number[]>> {
    const days = new Map<string, number[]>(streakIds.map((id) => [id, []]));
    if (streakIds.length === 0) return days;
    const rows = await trx.db
      .selectFrom('streak_days')
      .select(['streak_id', 'day'])
      .where('site_id', '=', siteId)
      .where('user_id', '=', userId)
      .where('streak_id', 'in', streakIds)
      .where('actions', '>', 0)
      .orderBy('day')
      .execute();
    for (const row of rows) days.get(row.streak_id)?.push(Number(row.day));
    return days;
  }

  /** Moves how many live actions counted the day by `delta` (a new day starts at it). */
  async addToDay(trx: Trx, siteId: string, userId: string, streakId: string, day: number, delta: number): Promise<void> {
    await trx.db
      .insertInto('streak_days')
      .values({ site_id: siteId, user_id: userId, streak_id: streakId, day, actions: Math.max(0, delta) })
      .onConflict((oc) =>
        oc.columns(['site_id', 'user_id', 'streak_id', 'day']).doUpdateSet({
          actions: sql<number>`case when streak_days.actions + ${delta} > 0 then streak_days.actions + ${delta} else 0 end`,
        }),
      )
      .execute();
  }

  /** The milestones paid to the user in the streak. */
  async milestonesPaid(trx: Trx, siteId: string, userId: string, streakId: string): Promise<Array<{ length: number; runStart: number; reached: number }>> {
    const rows = await trx.db
      .selectFrom('streak_milestones')
      .select(['length', 'run_start', 'reached'])
      .where('site_id', '=', siteId)
      .where('user_id', '=', userId)
      .where('streak_id', '=', streakId)
      .execute();
    return rows.map((row) => ({ length: Number(row.length), runStart: Number(row.run_start), reached: Number(row.reached) }));
  }

  /** Records a milestone paid: its key (run and length) fails a second payment. */
  async payMilestone(trx: Trx, row: StreakMilestonesTable): Promise<void> {
    await trx.db.insertInto('streak_milestones').values(row).execute();
  }

  /** The notices sent for the user's streak from `fromPeriod` on. */
  async notices(trx: Trx, siteId: string, userId: string, streakId: string, fromPeriod: number): Promise<Array<{ kind: string; period: number }>> {
    const rows = await trx.db
      .selectFrom('streak_notices')
      .select(['kind', 'period'])
      .where('site_id', '=', siteId)
      .where('user_id', '=', userId)
      .where('streak_id', '=', streakId)
      .where('period', '>=', fromPeriod)
      .execute();
    return rows.map((row) => ({ kind: row.kind, period: Number(row.period) }));
  }

  /** Records a notice: false when one with its key is there already. */
  async addNotice(trx: Trx, row: StreakNoticesTable): Promise<boolean> {
    const inserted = await trx.db
      .insertInto('streak_notices')
      .values(row)
      .onConflict((oc) => oc.columns(['site_id', 'user_id', 'streak_id', 'kind', 'period']).doNothing())
      .returning('period')
      .execute();
    return inserted.length > 0;
  }

  /** Sites with counted streak days. */
  async sites(trx: Trx): Promise<string[]> {
    const rows = await trx.db.selectFrom('streak_days').select('site_id').distinct().execute();
    return rows.map((row) => row.site_id);
  }

  /** Users whose last counted day of the streak is between the two days (inclusive). */
  async lastDaysBetween(trx: Trx, siteId: string, streakId: string, from: number, to: number): Promise<Array<{ userId: string; last: number }>> {
    const rows = await trx.db
      .selectFrom('streak_days')
      .select(['user_id', (eb) => eb.fn.max('day').as('last')])
      .where('site_id', '=', siteId)
      .where('streak_id', '=', streakId)
      .where('actions', '>', 0)
      .groupBy('user_id')
      .having((eb) => eb.fn.max('day'), '>=', from)
      .having((eb) => eb.fn.max('day'), '<=', to)
      .execute();
    return rows.map((row) => ({ userId: row.user_id, last: Number(row.last) }));
  }
}
