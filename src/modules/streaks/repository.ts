// The streaks' reads (docs/streaks.md): the site-local days each user counted per streak, the
// milestones paid per run, and the freezes and breaks the sweep announced. Their rows are written
// with the decisions that make them, in the ledger's write set (src/modules/ledger/write-set.ts).
import { sql } from 'kysely';
import type { Trx } from '../../db/index.js';
import { precompiled } from '../../db/precompiled.js';

const q = {
  // (On the action path: a decision that counts a streak and found no cached days reads them.)
  days: precompiled<{ siteId: string; userId: string; streakIds: string[] }, { streak_id: string; day: number }>((db, p) =>
    db
      .selectFrom('streak_days')
      .select(['streak_id', 'day'])
      .where('site_id', '=', p.siteId)
      .where('user_id', '=', p.userId)
      .where('streak_id', 'in', p.streakIds)
      .where('actions', '>', 0)
      .orderBy('day'),
  ),
};

export class StreaksRepository {
  /** The days (ascending) the user counted for each of the streaks, by streak. */
  async days(trx: Trx, siteId: string, userId: string, streakIds: readonly string[]): Promise<Map<string, number[]>> {
    const days = new Map<string, number[]>(streakIds.map((id) => [id, []]));
    if (streakIds.length === 0) return days;
    for (const row of await q.days(trx, { siteId, userId, streakIds: [...streakIds] })) days.get(row.streak_id)?.push(Number(row.day));
    return days;
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

  /** Sites with a program (those with streaks are the snapshot's to say): a small table, not the streak days. */
  async sites(trx: Trx): Promise<string[]> {
    const rows = await trx.db.selectFrom('site_programs').select('site_id').orderBy('site_id').execute();
    return rows.map((row) => row.site_id);
  }

  /**
   * Users whose last counted day of the streak before the day `before` (the current period's
   * first) is between the two days (inclusive), and who may still be owed a notice: not those
   * whose last missed period (`lastMissed`) has a notice already, nor those whose run was
   * announced broken. A day counted in the current period does not hide the periods missed before
   * it. `period`: the streak's, to read a notice's period as its first day.
   */
  async lastDaysBetween(
    trx: Trx,
    siteId: string,
    streakId: string,
    range: { from: number; to: number; before: number; lastMissed: number; period: 'day' | 'week' },
  ): Promise<Array<{ userId: string; last: number }>> {
    const last = trx.db
      .selectFrom('streak_days')
      .select(['user_id', (eb) => eb.fn.max('day').as('last')])
      .where('site_id', '=', siteId)
      .where('streak_id', '=', streakId)
      .where('actions', '>', 0)
      .where('day', '<', range.before)
      .groupBy('user_id')
      .having((eb) => eb.fn.max('day'), '>=', range.from)
      .having((eb) => eb.fn.max('day'), '<=', range.to)
      .as('l');
    // The first local day of a notice's period (src/engine/elements/streaks.ts firstDayOf).
    const firstDay = range.period === 'day' ? sql<number>`n.period` : sql<number>`n.period * 7 - 4`;
    const rows = await trx.db
      .selectFrom(last)
      .select(['l.user_id', 'l.last'])
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('streak_notices as n')
              .select(sql<number>`1`.as('one'))
              .where('n.site_id', '=', siteId)
              .where('n.streak_id', '=', streakId)
              .whereRef('n.user_id', '=', 'l.user_id')
              .where((eb) => eb.or([eb('n.period', '=', range.lastMissed), eb.and([eb('n.kind', '=', 'broken'), eb(firstDay, '>', eb.ref('l.last'))])])),
          ),
        ),
      )
      .execute();
    return rows.map((row) => ({ userId: row.user_id, last: Number(row.last) }));
  }
}
