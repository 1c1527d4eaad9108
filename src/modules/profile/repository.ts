// Reads of a user's profile (SPEC §7): balances, today's cap totals, lifetime points and level, the
// trophy case. Each by primary key or a (site, party) index: never a scan of the user's history.
import type { Db } from '../../db/index.js';

export class ProfileRepository {
  constructor(private readonly db: Db) {}

  /** The user's balance and lifetime points per category. */
  balances(siteId: string, userId: string): Promise<Array<{ category: string; balance: number; lifetime: number }>> {
    return this.db
      .selectFrom('point_balances')
      .select(['category', 'balance', 'lifetime'])
      .where('site_id', '=', siteId)
      .where('party_type', '=', 'user')
      .where('party_id', '=', userId)
      .execute();
  }

  /** What the user earned per category in the day starting at `dayStart`. */
  earnedInDay(siteId: string, userId: string, dayStart: number): Promise<Array<{ category: string; earned: number }>> {
    return this.db
      .selectFrom('point_earnings')
      .select(['category', 'earned'])
      .where('site_id', '=', siteId)
      .where('party_type', '=', 'user')
      .where('party_id', '=', userId)
      .where('period', '=', 'day')
      .where('period_start', '=', dayStart)
      .execute();
  }

  /** The user's lifetime points in the category (0 when none). */
  async lifetime(siteId: string, userId: string, category: string): Promise<number> {
    const row = await this.db
      .selectFrom('point_balances')
      .select('lifetime')
      .where('site_id', '=', siteId)
      .where('party_type', '=', 'user')
      .where('party_id', '=', userId)
      .where('category', '=', category)
      .executeTakeFirst();
    return Number(row?.lifetime ?? 0);
  }

  /** The level recorded for the user (null: none, or no row). */
  async levelId(siteId: string, userId: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('parties')
      .select('level_id')
      .where('site_id', '=', siteId)
      .where('party_type', '=', 'user')
      .where('party_id', '=', userId)
      .executeTakeFirst();
    return row?.level_id ?? null;
  }

  /** A page of the user's trophy case, latest earned first, and how many badges it holds. */
  async trophies(
    siteId: string,
    userId: string,
    limit: number,
    offset: number,
  ): Promise<{ total: number; rows: Array<{ badge_id: string; earned_count: number; first_earned_at: number; last_earned_at: number }> }> {
    const where = this.db.selectFrom('trophies').where('site_id', '=', siteId).where('party_type', '=', 'user').where('party_id', '=', userId);
    const [count, rows] = await Promise.all([
      where.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      where
        .select(['badge_id', 'earned_count', 'first_earned_at', 'last_earned_at'])
        .orderBy('last_earned_at', 'desc')
        .orderBy('badge_id')
        .limit(limit)
        .offset(offset)
        .execute(),
    ]);
    return { total: Number(count.n), rows };
  }
}
