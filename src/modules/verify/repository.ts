// The reads `questline verify` recomputes a site from: the ledgers as written, and what the engine
// keeps up to date incrementally (balances, cap totals, completions, supply, trophies, levels,
// budgets, award accounts). Each reads one table (or a join) of one site.
import { sql } from 'kysely';
import type { Db } from '../../db/index.js';

/** An action's stored outcome that kept the streak days it counted (ActionOutcome.streakDays). */
const STREAK_DAYS_KEPT = '%"streakDays":[{%';

export class VerifyRepository {
  constructor(private readonly db: Db) {}

  /** Every site's id, in order. */
  async siteIds(): Promise<string[]> {
    return (await this.db.selectFrom('sites').select('site_id').orderBy('site_id').execute()).map((row) => row.site_id);
  }

  /** Up to `limit` of the site's points ledger entries by entry id, after `after`. */
  ledgerPage(siteId: string, after: string | undefined, limit: number) {
    let page = this.db
      .selectFrom('points_ledger')
      .select(['entry_id', 'party_type', 'party_id', 'category', 'requested', 'credited', 'cause', 'cause_id', 'occurred_at', 'recorded_at'])
      .where('site_id', '=', siteId);
    if (after !== undefined) page = page.where('entry_id', '>', after);
    return page.orderBy('entry_id').limit(limit).execute();
  }

  /** Every party and category of the site with an expiry entry (whatever the category's rule is now): `party_type:party_id\u0000category`. */
  async expiredKeys(siteId: string): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('points_ledger')
      .select(['party_type', 'party_id', 'category'])
      .distinct()
      .where('site_id', '=', siteId)
      .where('cause', '=', 'expiry')
      .execute();
    return new Set(rows.map((row) => `${row.party_type}:${row.party_id}\u0000${row.category}`));
  }

  balances(siteId: string) {
    return this.db.selectFrom('point_balances').select(['party_type', 'party_id', 'category', 'balance', 'lifetime']).where('site_id', '=', siteId).execute();
  }

  /** The totals caps are checked against, per party, category and period. */
  capTotals(siteId: string) {
    return this.db
      .selectFrom('point_earnings')
      .select(['party_type', 'party_id', 'category', 'period', 'period_start', 'earned'])
      .where('site_id', '=', siteId)
      .execute();
  }

  /** Each completion with the points credited for it and the points its reversals took back. */
  completionCredits(siteId: string) {
    return this.db
      .selectFrom('mission_completions as c')
      .leftJoin('points_ledger as l', (join) => join.onRef('l.site_id', '=', 'c.site_id').onRef('l.cause_id', '=', 'c.completion_id'))
      .select((eb) => [
        'c.completion_id',
        'c.party_type',
        'c.party_id',
        'c.removed_at',
        eb.fn.coalesce(eb.fn.sum<number>(sql<number>`case when l.cause = 'mission' then l.credited else 0 end`), sql<number>`0`).as('credited'),
        eb.fn.coalesce(eb.fn.sum<number>(sql<number>`case when l.cause = 'reversal' then l.credited else 0 end`), sql<number>`0`).as('reversed'),
      ])
      .where('c.site_id', '=', siteId)
      .groupBy(['c.completion_id', 'c.party_type', 'c.party_id', 'c.removed_at'])
      .execute();
  }

  /** Live completions per party, mission and window. */
  liveCompletions(siteId: string) {
    return this.db
      .selectFrom('mission_completions')
      .select((eb) => ['party_type', 'party_id', 'mission_id', 'window_start', eb.fn.countAll<number>().as('n')])
      .where('site_id', '=', siteId)
      .where('removed_at', 'is', null)
      .groupBy(['party_type', 'party_id', 'mission_id', 'window_start'])
      .execute();
  }

  supplies(siteId: string) {
    return this.db.selectFrom('mission_supply').select(['mission_id', 'used']).where('site_id', '=', siteId).execute();
  }

  /** Per party and badge, the live completions that awarded it: how many, the first and the last. */
  badgesEarned(siteId: string) {
    return this.db
      .selectFrom('mission_completions')
      .select((eb) => [
        'party_type',
        'party_id',
        'badge_id',
        eb.fn.countAll<number>().as('n'),
        eb.fn.min('completed_at').as('first'),
        eb.fn.max('completed_at').as('last'),
      ])
      .where('site_id', '=', siteId)
      .where('removed_at', 'is', null)
      .where('badge_id', 'is not', null)
      .groupBy(['party_type', 'party_id', 'badge_id'])
      .execute();
  }

  /** Per user and badge, the streak milestones that awarded it: how many, the first and the last. */
  streakBadges(siteId: string) {
    return this.db
      .selectFrom('streak_milestones')
      .select((eb) => ['user_id', 'badge_id', eb.fn.countAll<number>().as('n'), eb.fn.min('earned_at').as('first'), eb.fn.max('earned_at').as('last')])
      .where('site_id', '=', siteId)
      .where('badge_id', 'is not', null)
      .groupBy(['user_id', 'badge_id'])
      .execute();
  }

  /** Every stored streak day of the site, with how many actions counted it (0 included). */
  streakDays(siteId: string) {
    return this.db.selectFrom('streak_days').select(['user_id', 'streak_id', 'day', 'actions']).where('site_id', '=', siteId).execute();
  }

  /** The users' live recorded actions that kept the streak days they counted (docs/streaks.md), with their outcome. */
  liveActions(siteId: string) {
    return this.db
      .selectFrom('action_events')
      .select(['party_id', 'event_id', 'outcome'])
      .where('site_id', '=', siteId)
      .where('party_type', '=', 'user')
      .where('recorded', '=', 1)
      .where('reversed_at', 'is', null)
      .where('outcome', 'like', STREAK_DAYS_KEPT)
      .execute();
  }

  /** The users' live completions whose event kept streak days: their mission and event. */
  streakCompletions(siteId: string) {
    return this.db
      .selectFrom('mission_completions as c')
      .innerJoin('action_events as e', (join) => join.onRef('e.site_id', '=', 'c.site_id').onRef('e.event_id', '=', 'c.event_id'))
      .select(['c.mission_id', 'c.event_id'])
      .where('c.site_id', '=', siteId)
      .where('c.party_type', '=', 'user')
      .where('c.removed_at', 'is', null)
      .where('e.outcome', 'like', STREAK_DAYS_KEPT)
      .execute();
  }

  /** The milestones paid (run and length), and the cause ids of the streak ledger entries. */
  async streakPayments(siteId: string): Promise<{ paid: string[]; credited: string[] }> {
    const paid = await this.db.selectFrom('streak_milestones').select(['user_id', 'streak_id', 'run_start', 'length']).where('site_id', '=', siteId).execute();
    const credited = await this.db
      .selectFrom('points_ledger')
      .select(['party_id', 'cause_id'])
      .distinct()
      .where('site_id', '=', siteId)
      .where('cause', '=', 'streak')
      .execute();
    return {
      paid: paid.map((row) => `${row.user_id}\u0000${row.streak_id}:${Number(row.run_start)}:${Number(row.length)}`),
      credited: credited.map((row) => `${row.party_id}\u0000${row.cause_id}`),
    };
  }

  /** The site's closed leaderboard windows, with the prizes that applied. */
  closings(siteId: string) {
    return this.db
      .selectFrom('leaderboard_closings')
      .select(['closing_id', 'board_id', 'window_start', 'party_type', 'prizes', 'closed_at'])
      .where('site_id', '=', siteId)
      .orderBy('closing_id')
      .execute();
  }

  /** The kept final standings of the site's closed windows, in listing order per closing. */
  results(siteId: string) {
    return this.db
      .selectFrom('leaderboard_results')
      .select(['closing_id', 'position', 'rank', 'party_id', 'score', 'prize'])
      .where('site_id', '=', siteId)
      .orderBy('closing_id')
      .orderBy('position')
      .execute();
  }

  /** The points paid per closing, party and category (prizes). */
  prizeCredits(siteId: string) {
    return this.db
      .selectFrom('points_ledger')
      .select([
        'cause_id',
        'party_type',
        'party_id',
        'category',
        (eb) => eb.fn.sum<number>('credited').as('credited'),
        (eb) => eb.fn.countAll<number>().as('n'),
      ])
      .where('site_id', '=', siteId)
      .where('cause', '=', 'prize')
      .groupBy(['cause_id', 'party_type', 'party_id', 'category'])
      .execute();
  }

  trophies(siteId: string) {
    return this.db
      .selectFrom('trophies')
      .select(['party_type', 'party_id', 'badge_id', 'earned_count', 'first_earned_at', 'last_earned_at'])
      .where('site_id', '=', siteId)
      .execute();
  }

  /** Every user's recorded level. */
  userLevels(siteId: string) {
    return this.db.selectFrom('parties').select(['party_id', 'level_id']).where('site_id', '=', siteId).where('party_type', '=', 'user').execute();
  }

  /** The points of the gifts charged to each giver's budget, per exchange and window. */
  giftsCharged(siteId: string) {
    return this.db
      .selectFrom('recognitions')
      .select(['exchange_id', 'giver_id', 'budget_window', (eb) => eb.fn.sum<number>('points').as('total')])
      .where('site_id', '=', siteId)
      .groupBy(['exchange_id', 'giver_id', 'budget_window'])
      .execute();
  }

  budgets(siteId: string) {
    return this.db.selectFrom('recognition_budgets').select(['exchange_id', 'giver_id', 'window_start', 'used']).where('site_id', '=', siteId).execute();
  }

  /** What each gift gave each recipient. */
  recipients(siteId: string) {
    return this.db.selectFrom('recognition_recipients').select(['recognition_id', 'recipient_id', 'points']).where('site_id', '=', siteId).execute();
  }

  /** The points credited per gift and recipient. */
  recognitionCredits(siteId: string) {
    return this.db
      .selectFrom('points_ledger')
      .select(['cause_id', 'party_id', (eb) => eb.fn.sum<number>('credited').as('credited')])
      .where('site_id', '=', siteId)
      .where('cause', '=', 'recognition')
      .groupBy(['cause_id', 'party_id'])
      .execute();
  }

  /** Each award account's statement, summed. */
  statementTotals(siteId: string) {
    return this.db
      .selectFrom('award_ledger')
      .select(['user_id', (eb) => eb.fn.sum<number>('amount').as('total')])
      .where('site_id', '=', siteId)
      .groupBy('user_id')
      .execute();
  }

  awardBalances(siteId: string) {
    return this.db.selectFrom('award_accounts').select(['user_id', 'balance']).where('site_id', '=', siteId).execute();
  }

  redeemedCodes(siteId: string) {
    return this.db
      .selectFrom('ots_codes')
      .select(['code_id', 'redeemed_by', 'amount'])
      .where('site_id', '=', siteId)
      .where('redeemed_at', 'is not', null)
      .execute();
  }

  /** The award credits per code (the entry's reference) and user. */
  codeCredits(siteId: string) {
    return this.db
      .selectFrom('award_ledger')
      .select(['reference', 'user_id', (eb) => eb.fn.sum<number>('amount').as('credited')])
      .where('site_id', '=', siteId)
      .where('kind', '=', 'ots')
      .groupBy(['reference', 'user_id'])
      .execute();
  }
}
